import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        boolean[] composite = new boolean[n + 1];
        StringBuilder out = new StringBuilder();
        for (int i = 2; i <= n; i++) {
            if (composite[i]) continue;
            out.append(out.length() > 0 ? " " : "").append(i);
            for (long j = (long) i * i; j <= n; j += i) composite[(int) j] = true;
        }
        System.out.println(out);
    }
}
