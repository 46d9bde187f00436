import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int n = Integer.parseInt(in.nextToken());
        double[] xs = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) { xs[i] = Double.parseDouble(in.nextToken()); sum += xs[i]; }
        double mean = sum / n, squares = 0;
        for (double x : xs) squares += (x - mean) * (x - mean);
        System.out.println(String.format(Locale.ROOT, "%.9f %.9f", mean, Math.sqrt(squares / n)));
    }
}
