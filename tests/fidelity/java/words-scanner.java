import java.util.*;

public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        Map<String, Integer> freq = new HashMap<>();
        while (sc.hasNext()) {
            String w = sc.next().toLowerCase(Locale.ROOT);
            freq.merge(w, 1, Integer::sum);
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(freq.entrySet());
        entries.sort((a, b) -> !a.getValue().equals(b.getValue()) ? b.getValue() - a.getValue()
                : a.getKey().compareTo(b.getKey()));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : entries) sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        System.out.print(sb);
    }
}
