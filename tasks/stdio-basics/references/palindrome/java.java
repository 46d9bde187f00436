import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        String s = line.trim();
        System.out.println(new StringBuilder(s).reverse().toString().equals(s) ? "YES" : "NO");
    }
}
