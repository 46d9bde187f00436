import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        StringJoiner out = new StringJoiner(",");
        for (int i = 0; i < n; i++) out.add(in.nextToken());
        System.out.print(out + "\n");
    }
}
