import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int total = 0;
        for (char d : in.nextToken().toCharArray()) total += d - '0';
        System.out.println(total);
    }
}
