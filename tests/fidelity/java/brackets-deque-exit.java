import java.io.*;
import java.util.*;

public class Main {
    static boolean balanced(String s) {
        Deque<Character> stack = new ArrayDeque<>();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '(': case '[': case '{':
                    stack.push(c);
                    break;
                case ')': if (stack.isEmpty() || stack.pop() != '(') return false; break;
                case ']': if (stack.isEmpty() || stack.pop() != '[') return false; break;
                case '}': if (stack.isEmpty() || stack.pop() != '{') return false; break;
                default: break;
            }
        }
        return stack.isEmpty();
    }

    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = br.readLine()) != null) out.append(balanced(line) ? "YES" : "NO").append('\n');
        System.out.print(out);
        System.out.flush();
        System.exit(0);
    }
}
