import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
        int s = Integer.parseInt(in.nextToken());
        System.out.print(String.format("%02d:%02d:%02d\n", s / 3600, s / 60 % 60, s % 60));
    }
}
