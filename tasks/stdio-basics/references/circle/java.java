import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        double r = Double.parseDouble(in.nextToken());
        System.out.println(String.format(Locale.ROOT, "%.9f %.9f", Math.PI * r * r, 2 * Math.PI * r));
    }
}
