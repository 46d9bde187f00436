import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < n; i++) seen.add(Long.parseLong(in.nextToken()));
        System.out.println(seen.size());
    }
}
