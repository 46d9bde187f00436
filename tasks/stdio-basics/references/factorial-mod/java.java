import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        final long MOD = 1_000_000_007L;
        long result = 1;
        for (int i = 2; i <= n; i++) result = result * i % MOD;
        System.out.println(result);
    }
}
