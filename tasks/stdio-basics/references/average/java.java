import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        long total = 0;
        for (int i = 0; i < n; i++) total += Long.parseLong(in.nextToken());
        System.out.println(String.format(Locale.ROOT, "%.9f", (double) total / n));
    }
}
