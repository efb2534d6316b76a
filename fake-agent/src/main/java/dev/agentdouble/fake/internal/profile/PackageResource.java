package dev.agentdouble.fake.internal.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The resources of this package (the built-in profiles, the model lists), read from the jar or
 * classes folder this class came from: a replay maps its classes from the launcher's archive and
 * never opens the jar, and the class loader's own lookup would first search the JDK's image and
 * then go through a URL connection, more classes to load at start-up.
 */
final class PackageResource {
  private static final String PACKAGE = PackageResource.class.getPackageName().replace('.', '/');

  private static ZipFile openJar;

  private PackageResource() {}

  /** The bytes of the resource {@code name} of this package, if there is one. */
  static Optional<byte[]> find(String name) {
    String entry = PACKAGE + "/" + name;
    try {
      Optional<Path> from = location();
      if (from.isEmpty()) {
        return fromClassLoader(name);
      }
      if (Files.isDirectory(from.get())) {
        try {
          return Optional.of(Files.readAllBytes(from.get().resolve(entry)));
        } catch (NoSuchFileException e) {
          return Optional.empty();
        }
      }
      ZipFile jar = jar(from.get());
      ZipEntry e = jar.getEntry(entry);
      if (e == null) {
        return Optional.empty();
      }
      try (InputStream in = jar.getInputStream(e)) {
        return Optional.of(in.readAllBytes());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(entry, e);
    }
  }

  /** The bytes of the resource {@code name} of this package, which must exist. */
  static byte[] read(String name) {
    Optional<byte[]> bytes = find(name);
    if (bytes.isEmpty()) {
      throw new IllegalStateException("no resource " + PACKAGE + "/" + name);
    }
    return bytes.get();
  }

  /**
   * The names of this package's resources that start with {@code prefix} and end with {@code
   * suffix}, in the order of their names (an error message's list; never on a run's path).
   */
  static List<String> list(String prefix, String suffix) {
    List<String> names = new ArrayList<>();
    try {
      Optional<Path> from = location();
      if (from.isPresent() && Files.isDirectory(from.get())) {
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(from.get().resolve(PACKAGE), prefix + "*" + suffix)) {
          for (Path f : files) {
            names.add(f.getFileName().toString());
          }
        }
      } else if (from.isPresent()) {
        String start = PACKAGE + "/" + prefix;
        for (Enumeration<? extends ZipEntry> e = jar(from.get()).entries(); e.hasMoreElements(); ) {
          String entry = e.nextElement().getName();
          if (entry.startsWith(start)
              && entry.endsWith(suffix)
              && entry.indexOf('/', PACKAGE.length() + 1) < 0) {
            names.add(entry.substring(PACKAGE.length() + 1));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(PACKAGE, e);
    }
    names.sort(null);
    return names;
  }

  /**
   * The jar, opened once for the process: a run reads its profile and perhaps its model list, and
   * reading the jar's directory again for each would be wasted start-up.
   */
  private static synchronized ZipFile jar(Path file) throws IOException {
    if (openJar == null) {
      openJar = new ZipFile(file.toFile());
    }
    return openJar;
  }

  private static Optional<Path> location() {
    try {
      return Optional.of(
          Path.of(
              PackageResource.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<byte[]> fromClassLoader(String name) {
    try (InputStream in = PackageResource.class.getResourceAsStream(name)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(name, e);
    }
  }
}
