import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        String[] parts = line.trim().split("/");
        int d = Integer.parseInt(parts[0]), m = Integer.parseInt(parts[1]), y = Integer.parseInt(parts[2]);
        System.out.print(String.format("%04d-%02d-%02d\n", y, m, d));
    }
}
