import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int k = 1; k <= n; k++) out.append(" ".repeat(n - k)).append("*".repeat(2 * k - 1)).append('\n');
        for (int k = n - 1; k >= 1; k--) out.append(" ".repeat(n - k)).append("*".repeat(2 * k - 1)).append('\n');
        System.out.print(out);
    }
}
