import java.io.*;

public class Main {
    static final StringBuilder OUT = new StringBuilder();

    public static void main(String[] args) throws IOException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.print(OUT);
            System.out.flush();
        }));
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine().trim());
        for (int i = 1; i <= n; i++) OUT.append(i).append('\n');
    }
}
