"""Java 17 reference solutions of the stdio-basics problems (class Main), by problem name."""

TOKENS = """import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StringTokenizer in = new StringTokenizer(new String(System.in.readAllBytes()));
"""
LINE = """import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
"""
END = """    }
}
"""


def tokens(body: str) -> str:
    return TOKENS + body + END


def line(body: str) -> str:
    return LINE + body + END


REFERENCES = {
"sum-two": tokens("""        long a = Long.parseLong(in.nextToken()), b = Long.parseLong(in.nextToken());
        System.out.println(a + b);
"""),
"sum-list": tokens("""        int n = Integer.parseInt(in.nextToken());
        long total = 0;
        for (int i = 0; i < n; i++) total += Long.parseLong(in.nextToken());
        System.out.println(total);
"""),
"min-max": tokens("""        int n = Integer.parseInt(in.nextToken());
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long x = Long.parseLong(in.nextToken());
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        System.out.println(lo + " " + hi);
"""),
"reverse-words": line("""        List<String> words = new ArrayList<>(Arrays.asList(line.trim().split("\\\\s+")));
        words.removeIf(String::isEmpty);
        Collections.reverse(words);
        System.out.println(String.join(" ", words));
"""),
"count-vowels": line("""        int count = 0;
        for (char ch : line.toCharArray()) if ("aeiouAEIOU".indexOf(ch) >= 0) count++;
        System.out.println(count);
"""),
"sort-numbers": tokens("""        int n = Integer.parseInt(in.nextToken());
        long[] xs = new long[n];
        for (int i = 0; i < n; i++) xs[i] = Long.parseLong(in.nextToken());
        Arrays.sort(xs);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) out.append(i > 0 ? " " : "").append(xs[i]);
        System.out.println(out);
"""),
"fizzbuzz": tokens("""        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            out.append(i % 15 == 0 ? "FizzBuzz" : i % 3 == 0 ? "Fizz" : i % 5 == 0 ? "Buzz" : String.valueOf(i))
                .append('\\n');
        }
        System.out.print(out);
"""),
"primes-up-to": tokens("""        int n = Integer.parseInt(in.nextToken());
        boolean[] composite = new boolean[n + 1];
        StringBuilder out = new StringBuilder();
        for (int i = 2; i <= n; i++) {
            if (composite[i]) continue;
            out.append(out.length() > 0 ? " " : "").append(i);
            for (long j = (long) i * i; j <= n; j += i) composite[(int) j] = true;
        }
        System.out.println(out);
"""),
"matrix-transpose": tokens("""        int r = Integer.parseInt(in.nextToken()), c = Integer.parseInt(in.nextToken());
        String[][] m = new String[r][c];
        for (int i = 0; i < r; i++) for (int j = 0; j < c; j++) m[i][j] = in.nextToken();
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < c; j++) {
            for (int i = 0; i < r; i++) out.append(i > 0 ? " " : "").append(m[i][j]);
            out.append('\\n');
        }
        System.out.print(out);
"""),
"gcd-lcm": tokens("""        long a = Long.parseLong(in.nextToken()), b = Long.parseLong(in.nextToken());
        long x = a, y = b;
        while (y != 0) { long t = x % y; x = y; y = t; }
        System.out.println(x + " " + (a / x * b));
"""),
"factorial-mod": tokens("""        int n = Integer.parseInt(in.nextToken());
        final long MOD = 1_000_000_007L;
        long result = 1;
        for (int i = 2; i <= n; i++) result = result * i % MOD;
        System.out.println(result);
"""),
"palindrome": line("""        String s = line.trim();
        System.out.println(new StringBuilder(s).reverse().toString().equals(s) ? "YES" : "NO");
"""),
"letter-frequency": line("""        int[] counts = new int[26];
        for (char ch : line.toLowerCase().toCharArray()) if (ch >= 'a' && ch <= 'z') counts[ch - 'a']++;
        StringBuilder out = new StringBuilder();
        for (int k = 0; k < 26; k++) if (counts[k] > 0) out.append((char) ('a' + k)).append(' ').append(counts[k]).append('\\n');
        System.out.print(out);
"""),
"binary": tokens("""        System.out.println(Long.toBinaryString(Long.parseLong(in.nextToken())));
"""),
"word-count": tokens("""        System.out.println(in.countTokens());
"""),
"second-largest": tokens("""        int n = Integer.parseInt(in.nextToken());
        TreeSet<Long> values = new TreeSet<>();
        for (int i = 0; i < n; i++) values.add(Long.parseLong(in.nextToken()));
        System.out.println(values.size() >= 2 ? String.valueOf(values.lower(values.last())) : "NONE");
"""),
"fibonacci": tokens("""        int n = Integer.parseInt(in.nextToken());
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) { long t = a + b; a = b; b = t; }
        System.out.println(a);
"""),
"leap-years": tokens("""        int t = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < t; i++) {
            long y = Long.parseLong(in.nextToken());
            out.append(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO").append('\\n');
        }
        System.out.print(out);
"""),
"prefix-sums": tokens("""        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += Long.parseLong(in.nextToken());
            out.append(i > 0 ? " " : "").append(total);
        }
        System.out.println(out);
"""),
"anagram": tokens("""        char[] a = in.nextToken().toCharArray(), b = in.nextToken().toCharArray();
        Arrays.sort(a);
        Arrays.sort(b);
        System.out.println(Arrays.equals(a, b) ? "YES" : "NO");
"""),
"digit-sum": tokens("""        int total = 0;
        for (char d : in.nextToken().toCharArray()) total += d - '0';
        System.out.println(total);
"""),
"count-distinct": tokens("""        int n = Integer.parseInt(in.nextToken());
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < n; i++) seen.add(Long.parseLong(in.nextToken()));
        System.out.println(seen.size());
"""),
"collatz-steps": tokens("""        long n = Long.parseLong(in.nextToken());
        int steps = 0;
        while (n != 1) {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            steps++;
        }
        System.out.println(steps);
"""),
"max-subarray": tokens("""        int n = Integer.parseInt(in.nextToken());
        long best = Long.parseLong(in.nextToken()), current = best;
        for (int i = 1; i < n; i++) {
            long x = Long.parseLong(in.nextToken());
            current = Math.max(x, current + x);
            best = Math.max(best, current);
        }
        System.out.println(best);
"""),
"balanced-brackets": line("""        String s = line.trim();
        Deque<Character> stack = new ArrayDeque<>();
        boolean ok = true;
        for (char ch : s.toCharArray()) {
            if ("([{".indexOf(ch) >= 0) stack.push(ch);
            else {
                char open = ch == ')' ? '(' : ch == ']' ? '[' : '{';
                if (stack.isEmpty() || stack.pop() != open) { ok = false; break; }
            }
        }
        System.out.println(ok && stack.isEmpty() ? "YES" : "NO");
"""),
"roman-numerals": tokens("""        int n = Integer.parseInt(in.nextToken());
        int[] values = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
        String[] symbols = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            while (n >= values[i]) { out.append(symbols[i]); n -= values[i]; }
        }
        System.out.println(out);
"""),
"average": tokens("""        int n = Integer.parseInt(in.nextToken());
        long total = 0;
        for (int i = 0; i < n; i++) total += Long.parseLong(in.nextToken());
        System.out.println(String.format(Locale.ROOT, "%.9f", (double) total / n));
"""),
"distance-points": tokens("""        double x1 = Double.parseDouble(in.nextToken()), y1 = Double.parseDouble(in.nextToken());
        double x2 = Double.parseDouble(in.nextToken()), y2 = Double.parseDouble(in.nextToken());
        System.out.println(String.format(Locale.ROOT, "%.9f", Math.hypot(x2 - x1, y2 - y1)));
"""),
"celsius-to-fahrenheit": tokens("""        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            double c = Double.parseDouble(in.nextToken());
            out.append(String.format(Locale.ROOT, "%.9f", c * 9 / 5 + 32)).append('\\n');
        }
        System.out.print(out);
"""),
"circle": tokens("""        double r = Double.parseDouble(in.nextToken());
        System.out.println(String.format(Locale.ROOT, "%.9f %.9f", Math.PI * r * r, 2 * Math.PI * r));
"""),
"quadratic-roots": tokens("""        double a = Double.parseDouble(in.nextToken()), b = Double.parseDouble(in.nextToken());
        double c = Double.parseDouble(in.nextToken());
        double d = Math.sqrt(b * b - 4 * a * c);
        // the numerically stable form: no cancellation between -b and d
        double q = -0.5 * (b + Math.copySign(d, b));
        double x1 = q / a, x2 = c / q;
        System.out.println(String.format(Locale.ROOT, "%.9f %.9f", Math.min(x1, x2), Math.max(x1, x2)));
"""),
"mean-stddev": tokens("""        int n = Integer.parseInt(in.nextToken());
        double[] xs = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) { xs[i] = Double.parseDouble(in.nextToken()); sum += xs[i]; }
        double mean = sum / n, squares = 0;
        for (double x : xs) squares += (x - mean) * (x - mean);
        System.out.println(String.format(Locale.ROOT, "%.9f %.9f", mean, Math.sqrt(squares / n)));
"""),
"swap-case": line("""        StringBuilder out = new StringBuilder();
        for (char ch : line.toCharArray()) {
            if (ch >= 'a' && ch <= 'z') out.append(Character.toUpperCase(ch));
            else if (ch >= 'A' && ch <= 'Z') out.append(Character.toLowerCase(ch));
            else out.append(ch);
        }
        System.out.println(out);
"""),
"right-triangle": tokens("""        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= n; i++) out.append(" ".repeat(n - i)).append("*".repeat(i)).append('\\n');
        System.out.print(out);
"""),
"diamond": tokens("""        int n = Integer.parseInt(in.nextToken());
        StringBuilder out = new StringBuilder();
        for (int k = 1; k <= n; k++) out.append(" ".repeat(n - k)).append("*".repeat(2 * k - 1)).append('\\n');
        for (int k = n - 1; k >= 1; k--) out.append(" ".repeat(n - k)).append("*".repeat(2 * k - 1)).append('\\n');
        System.out.print(out);
"""),
"multiplication-table": tokens("""        int n = Integer.parseInt(in.nextToken());
        int width = String.valueOf(n * n).length();
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) out.append(j > 1 ? " " : "").append(String.format("%" + width + "d", i * j));
            out.append('\\n');
        }
        System.out.print(out);
"""),
"score-table": tokens("""        int n = Integer.parseInt(in.nextToken());
        String[] names = new String[n], scores = new String[n];
        int w = 0, v = 0;
        for (int i = 0; i < n; i++) {
            names[i] = in.nextToken();
            scores[i] = in.nextToken();
            w = Math.max(w, names[i].length());
            v = Math.max(v, scores[i].length());
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(String.format("%-" + w + "s | %" + v + "s", names[i], scores[i])).append('\\n');
        }
        System.out.print(out);
"""),
"caesar-cipher": line("""        int k = Integer.parseInt(line.trim());
        String text = in.readLine();
        StringBuilder out = new StringBuilder();
        for (char ch : text.toCharArray()) {
            if (ch >= 'a' && ch <= 'z') out.append((char) ((ch - 'a' + k) % 26 + 'a'));
            else if (ch >= 'A' && ch <= 'Z') out.append((char) ((ch - 'A' + k) % 26 + 'A'));
            else out.append(ch);
        }
        System.out.println(out);
"""),
"greeting": line("""        System.out.print("Hello, " + line + "!\\n");
"""),
"csv-join": tokens("""        int n = Integer.parseInt(in.nextToken());
        StringJoiner out = new StringJoiner(",");
        for (int i = 0; i < n; i++) out.add(in.nextToken());
        System.out.print(out + "\\n");
"""),
"seconds-to-clock": tokens("""        int s = Integer.parseInt(in.nextToken());
        System.out.print(String.format("%02d:%02d:%02d\\n", s / 3600, s / 60 % 60, s % 60));
"""),
"date-iso": line("""        String[] parts = line.trim().split("/");
        int d = Integer.parseInt(parts[0]), m = Integer.parseInt(parts[1]), y = Integer.parseInt(parts[2]);
        System.out.print(String.format("%04d-%02d-%02d\\n", y, m, d));
"""),
}
