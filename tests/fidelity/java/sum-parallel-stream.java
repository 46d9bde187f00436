import java.io.*;
import java.util.*;
import java.util.stream.*;

public class Main {
    public static void main(String[] args) throws IOException {
        byte[] all = System.in.readAllBytes();
        String[] tokens = new String(all).trim().split("\\s+");
        int n = Integer.parseInt(tokens[0]);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) values[i] = Long.parseLong(tokens[i + 1]);
        long total = Arrays.stream(values).parallel().sum();
        System.out.println(total);
    }
}
