import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        long a = Long.parseLong(in.nextToken()), b = Long.parseLong(in.nextToken());
        long x = a, y = b;
        while (y != 0) { long t = x % y; x = y; y = t; }
        System.out.println(x + " " + (a / x * b));
    }
}
