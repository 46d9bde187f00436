import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        String[] names = new String[n], scores = new String[n];
        int w = 0, v = 0;
        for (int i = 0; i < n; i++) {
            names[i] = in.nextToken();
            scores[i] = in.nextToken();
            w = Math.max(w, names[i].length());
            v = Math.max(v, scores[i].length());
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(String.format("%-" + w + "s | %" + v + "s", names[i], scores[i])).append('\n');
        }
        System.out.print(out);
    }
}
