package dev.agentdouble.recorder.command;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A command that was understood but could not be done (a file that cannot be read or written);
 * reported as {@code agentdouble: message} with exit status 1.
 */
public final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CommandFailure(String message) {
    super(message);
  }

  /**
   * Why an I/O operation on {@code subject} failed, in lower case, naming the file concerned when
   * it is another one (a parent folder, a temporary file).
   */
  public static String reason(IOException e, String subject) {
    String why;
    if (e instanceof NoSuchFileException) {
      why = "no such file or folder";
    } else if (e instanceof AccessDeniedException) {
      why = "permission denied";
    } else if (e instanceof NotDirectoryException) {
      why = "not a directory";
    } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
      why = lowerFirst(fs.getReason());
    } else if (e instanceof FileSystemException) {
      why = e.getClass().getSimpleName();
    } else {
      why = e.getMessage() == null ? e.getClass().getSimpleName() : lowerFirst(e.getMessage());
    }
    if (e instanceof FileSystemException fs
        && fs.getFile() != null
        && !Path.of(fs.getFile()).equals(Path.of(subject))) {
      return fs.getFile() + ": " + why;
    }
    return why;
  }

  private static String lowerFirst(String s) {
    if (s.length() > 1
        && Character.isUpperCase(s.charAt(0))
        && !Character.isUpperCase(s.charAt(1))) {
      return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }
    return s;
  }
}
