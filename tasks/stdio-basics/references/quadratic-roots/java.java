import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        double a = Double.parseDouble(in.nextToken()), b = Double.parseDouble(in.nextToken());
        double c = Double.parseDouble(in.nextToken());
        double d = Math.sqrt(b * b - 4 * a * c);
        // the numerically stable form: no cancellation between -b and d
        double q = -0.5 * (b + Math.copySign(d, b));
        double x1 = q / a, x2 = c / q;
        System.out.println(String.format(Locale.ROOT, "%.9f %.9f", Math.min(x1, x2), Math.max(x1, x2)));
    }
}
