import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            double c = Double.parseDouble(in.nextToken());
            out.append(String.format(Locale.ROOT, "%.9f", c * 9 / 5 + 32)).append('\n');
        }
        System.out.print(out);
    }
}
