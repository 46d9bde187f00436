import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        InputStream in = new BufferedInputStream(System.in, 1 << 16);
        long bytes = 0, lines = 0, words = 0;
        boolean inWord = false;
        int b;
        while ((b = in.read()) != -1) {
            bytes++;
            if (b == '\n') lines++;
            boolean space = b == ' ' || b == '\t' || b == '\n' || b == 0x0b || b == '\f' || b == '\r';
            if (space) {
                inWord = false;
            } else if (!inWord) {
                inWord = true;
                words++;
            }
        }
        System.out.println(bytes + " " + lines + " " + words);
    }
}
