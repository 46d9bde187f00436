import java.io.*;
import java.util.*;

public class Main implements Runnable {
    static List<Integer>[] adj;

    static int height(int u, int parent) {
        int best = 0;
        for (int v : adj[u]) {
            if (v != parent) best = Math.max(best, height(v, u) + 1);
        }
        return best;
    }

    @SuppressWarnings("unchecked")
    public void run() {
        try {
            BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
            int n = Integer.parseInt(br.readLine().trim());
            adj = new ArrayList[n + 1];
            for (int i = 0; i <= n; i++) adj[i] = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                StringTokenizer st = new StringTokenizer(br.readLine());
                int u = Integer.parseInt(st.nextToken()), v = Integer.parseInt(st.nextToken());
                adj[u].add(v);
                adj[v].add(u);
            }
            System.out.println(height(1, 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(null, new Main(), "solver", 1 << 27);
        t.start();
        t.join();
    }
}
