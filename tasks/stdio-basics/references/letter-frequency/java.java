import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        int[] counts = new int[26];
        for (char ch : line.toLowerCase().toCharArray()) if (ch >= 'a' && ch <= 'z') counts[ch - 'a']++;
        StringBuilder out = new StringBuilder();
        for (int k = 0; k < 26; k++) if (counts[k] > 0) out.append((char) ('a' + k)).append(' ').append(counts[k]).append('\n');
        System.out.print(out);
    }
}
