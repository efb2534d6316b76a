import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The JVM's floor for the throughput benchmark: a main that copies a file to stdout with the
 * kernel (FileChannel.transferTo, sendfile), and nothing else; started like the empty main.
 */
public final class Copy {
  public static void main(String[] args) throws Exception {
    try (FileChannel in = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ);
        FileChannel out = new FileOutputStream(FileDescriptor.out).getChannel()) {
      long size = in.size();
      for (long at = 0; at < size; ) {
        at += in.transferTo(at, size - at, out);
      }
    }
  }
}
