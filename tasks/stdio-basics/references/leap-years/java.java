import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int t = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < t; i++) {
            long y = Long.parseLong(in.nextToken());
            out.append(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO").append('\n');
        }
        System.out.print(out);
    }
}
