import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        long best = Long.parseLong(in.nextToken()), current = best;
        for (int i = 1; i < n; i++) {
            long x = Long.parseLong(in.nextToken());
            current = Math.max(x, current + x);
            best = Math.max(best, current);
        }
        System.out.println(best);
    }
}
