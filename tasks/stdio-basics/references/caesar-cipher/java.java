import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        int k = Integer.parseInt(line.trim());
        String text = in.readLine();
        StringBuilder out = new StringBuilder();
        for (char ch : text.toCharArray()) {
            if (ch >= 'a' && ch <= 'z') out.append((char) ((ch - 'a' + k) % 26 + 'a'));
            else if (ch >= 'A' && ch <= 'Z') out.append((char) ((ch - 'A' + k) % 26 + 'A'));
            else out.append(ch);
        }
        System.out.println(out);
    }
}
