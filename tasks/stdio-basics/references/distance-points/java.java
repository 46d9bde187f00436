import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        double x1 = Double.parseDouble(in.nextToken()), y1 = Double.parseDouble(in.nextToken());
        double x2 = Double.parseDouble(in.nextToken()), y2 = Double.parseDouble(in.nextToken());
        System.out.println(String.format(Locale.ROOT, "%.9f", Math.hypot(x2 - x1, y2 - y1)));
    }
}
