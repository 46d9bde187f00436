import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line = in.readLine();
        if (line == null) line = "";
        List<String> words = new ArrayList<>(Arrays.asList(line.trim().split("\\s+")));
        words.removeIf(String::isEmpty);
        Collections.reverse(words);
        System.out.println(String.join(" ", words));
    }
}
