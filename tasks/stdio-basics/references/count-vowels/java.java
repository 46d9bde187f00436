import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        int count = 0;
        for (char ch : line.toCharArray()) if ("aeiouAEIOU".indexOf(ch) >= 0) count++;
        System.out.println(count);
    }
}
