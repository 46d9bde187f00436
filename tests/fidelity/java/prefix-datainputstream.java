import java.io.*;

class Main {
    static final class Reader {
        private final DataInputStream din = new DataInputStream(System.in);
        private final byte[] buffer = new byte[1 << 16];
        private int pointer = 0, read = 0;

        private byte readByte() throws IOException {
            if (pointer == read) {
                read = din.read(buffer, 0, buffer.length);
                pointer = 0;
                if (read == -1) {
                    read = 0;
                    return -1;
                }
            }
            return buffer[pointer++];
        }

        long nextLong() throws IOException {
            long ret = 0;
            byte b = readByte();
            while (b <= ' ') b = readByte();
            boolean neg = b == '-';
            if (neg) b = readByte();
            do {
                ret = ret * 10 + b - '0';
            } while ((b = readByte()) >= '0' && b <= '9');
            return neg ? -ret : ret;
        }

        int nextInt() throws IOException {
            return (int) nextLong();
        }
    }

    public static void main(String[] args) throws IOException {
        Reader in = new Reader();
        int n = in.nextInt(), q = in.nextInt();
        long[] pre = new long[n + 1];
        for (int i = 1; i <= n; i++) pre[i] = pre[i - 1] + in.nextLong();
        PrintWriter out = new PrintWriter(new BufferedOutputStream(System.out));
        while (q-- > 0) {
            int l = in.nextInt(), r = in.nextInt();
            out.println(pre[r] - pre[l - 1]);
        }
        out.flush();
    }
}
