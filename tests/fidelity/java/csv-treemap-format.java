import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        br.readLine();
        TreeMap<String, long[]> totals = new TreeMap<>();
        String line;
        while ((line = br.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) continue;
            String[] parts = line.split(",");
            long[] t = totals.computeIfAbsent(parts[0].trim(), k -> new long[2]);
            t[0] += Long.parseLong(parts[1].trim());
            t[1]++;
        }
        for (Map.Entry<String, long[]> e : totals.entrySet()) {
            System.out.println(String.format(Locale.ROOT, "%s %.2f", e.getKey(), (double) e.getValue()[0] / e.getValue()[1]));
        }
    }
}
