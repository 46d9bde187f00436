import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long x = Long.parseLong(in.nextToken());
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        System.out.println(lo + " " + hi);
    }
}
