public class Main {
    public static void main(String[] args) throws Exception {
        java.io.BufferedReader br = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine().trim());
        boolean[] composite = new boolean[n + 1];
        StringBuilder sb = new StringBuilder();
        int count = 0;
        for (int i = 2; i <= n; i++) {
            if (composite[i]) continue;
            if (count++ > 0) sb.append(' ');
            sb.append(i);
            for (long j = (long) i * i; j <= n; j += i) composite[(int) j] = true;
        }
        System.out.println(count);
        System.out.println(sb);
    }
}
