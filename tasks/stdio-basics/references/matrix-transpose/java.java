import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int r = Integer.parseInt(in.nextToken()), c = Integer.parseInt(in.nextToken());
        String[][] m = new String[r][c];
        for (int i = 0; i < r; i++) for (int j = 0; j < c; j++) m[i][j] = in.nextToken();
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < c; j++) {
            for (int i = 0; i < r; i++) out.append(i > 0 ? " " : "").append(m[i][j]);
            out.append('\n');
        }
        System.out.print(out);
    }
}
