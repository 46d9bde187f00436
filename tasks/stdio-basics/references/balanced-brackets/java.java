import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        String s = line.trim();
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
    }
}
