import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        StringBuilder out = new StringBuilder();
        for (char ch : line.toCharArray()) {
            if (ch >= 'a' && ch <= 'z') out.append(Character.toUpperCase(ch));
            else if (ch >= 'A' && ch <= 'Z') out.append(Character.toLowerCase(ch));
            else out.append(ch);
        }
        System.out.println(out);
    }
}
