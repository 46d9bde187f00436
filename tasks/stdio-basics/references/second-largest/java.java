import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        TreeSet<Long> values = new TreeSet<>();
        for (int i = 0; i < n; i++) values.add(Long.parseLong(in.nextToken()));
        System.out.println(values.size() >= 2 ? String.valueOf(values.lower(values.last())) : "NONE");
    }
}
