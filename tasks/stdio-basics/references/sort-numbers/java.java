import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        long[] xs = new long[n];
        for (int i = 0; i < n; i++) xs[i] = Long.parseLong(in.nextToken());
        Arrays.sort(xs);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) out.append(i > 0 ? " " : "").append(xs[i]);
        System.out.println(out);
    }
}
