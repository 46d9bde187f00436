import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = new StringTokenizer(br.readLine());
        int rows = Integer.parseInt(st.nextToken()), cols = Integer.parseInt(st.nextToken());
        char[][] grid = new char[rows][];
        for (int r = 0; r < rows; r++) grid[r] = br.readLine().trim().toCharArray();
        int count = 0;
        int[] stack = new int[rows * cols];
        int[][] dirs = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (grid[r][c] != '#') continue;
                count++;
                int top = 0;
                stack[top++] = r * cols + c;
                grid[r][c] = '.';
                while (top > 0) {
                    int cell = stack[--top];
                    for (int[] d : dirs) {
                        int nr = cell / cols + d[0], nc = cell % cols + d[1];
                        if (nr >= 0 && nr < rows && nc >= 0 && nc < cols && grid[nr][nc] == '#') {
                            grid[nr][nc] = '.';
                            stack[top++] = nr * cols + nc;
                        }
                    }
                }
            }
        }
        System.out.println(count);
    }
}
