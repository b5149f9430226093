import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.Base64;

/**
 * Debian's apksigner command line, one JVM for many runs (tests/apk/apksigner.ts). Each line of
 * stdin is one run's arguments, tab-separated; each line of stdout is its exit code, a space, and
 * what it printed (stdout and stderr), base64. The runs are apksigner's own main(): its exit is
 * caught, so the JVM (about 0.4 s of CPU to start) serves the next one.
 */
public class ApksignerServer {
  private static final class Exit extends SecurityException {
    final int code;

    Exit(int code) {
      super("exit " + code);
      this.code = code;
    }
  }

  @SuppressWarnings("removal")
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    System.setSecurityManager(new SecurityManager() {
      @Override
      public void checkPermission(Permission p) {}

      @Override
      public void checkExit(int status) {
        throw new Exit(status);
      }
    });
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
      System.setOut(capture);
      System.setErr(capture);
      int code = 0;
      try {
        com.android.apksigner.ApkSignerTool.main(line.split("\t", -1));
      } catch (Exit e) {
        code = e.code;
      } catch (Throwable t) {
        t.printStackTrace(capture);
        code = 1;
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
      capture.flush();
      out.println(code + " " + Base64.getEncoder().encodeToString(printed.toByteArray()));
      out.flush();
    }
  }
}
