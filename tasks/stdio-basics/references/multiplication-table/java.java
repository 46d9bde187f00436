import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        int width = String.valueOf(n * n).length();
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) out.append(j > 1 ? " " : "").append(String.format("%" + width + "d", i * j));
            out.append('\n');
        }
        System.out.print(out);
    }
}
