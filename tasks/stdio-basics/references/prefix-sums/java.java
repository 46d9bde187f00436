import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += Long.parseLong(in.nextToken());
            out.append(i > 0 ? " " : "").append(total);
        }
        System.out.println(out);
    }
}
