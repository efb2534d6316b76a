package dev.agentdouble.fake.internal.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
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
 * The resources of this package (the built-in profiles, the model lists): as the build compiled
 * them into a class ({@link Compiled}), which a replay maps from the launcher's archive with its
 * other classes, so that it never opens the jar (its directory, some 1,500 entries, and an
 * inflater: milliseconds of every run); else read from the jar or classes folder this class came
 * from (a build that did not compile them): the class loader's own lookup would first search the
 * JDK's image and then go through a URL connection, more classes to load at start-up.
 */
final class PackageResource {
  private static final String PACKAGE = PackageResource.class.getPackageName().replace('.', '/');

  /** The class the build generates from this package's resources ({@link ResourceCompiler}). */
  static final String COMPILED = PackageResource.class.getPackageName() + ".CompiledResources";

  private static ZipFile openJar;

  private static boolean looked;
  private static Compiled compiled;

  private PackageResource() {}

  /**
   * This package's resources as the build compiled them: their texts verbatim, and the lines of
   * those that are lines of profiles as {@link ProfileResource#parse} reads them (a test holds each
   * to the resource it came from).
   */
  interface Compiled {
    /** The resources' names, in the order of their names. */
    List<String> names();

    /** The text of the resource {@code name}; null when there is no such resource. */
    String text(String name);

    /** The lines {@link ProfileResource#parse} reads from {@code name}; null when it reads none. */
    List<ProfileLine> lines(String name);

    /**
     * The profile the interpreter read from the resource {@code name} as the build ran it, made
     * again without reading ({@link ResourceCompiler.SnapshotWriter}); null when there is none (no
     * profile's resource, or one the interpreter refuses: a run then reads it, and refuses it the
     * same way).
     */
    default Object profile(String name) {
      return null;
    }
  }

  /**
   * The profile of the resource {@code name} as the build compiled it, when it is a {@code type};
   * null otherwise (no compiled resources, or no such profile).
   */
  static <T> T profile(String name, Class<T> type) {
    Compiled c = compiled();
    Object made = c == null ? null : c.profile(name);
    return type.isInstance(made) ? type.cast(made) : null;
  }

  /**
   * The build's own resources, read from its source folder: what {@link ResourceCompiler} runs the
   * interpreter on, never the compiled class of an earlier build.
   */
  static synchronized void use(Compiled resources) {
    looked = true;
    compiled = resources;
  }

  /** Called by the generated class as it is initialised: the resources it holds. */
  static synchronized void compiled(Compiled resources) {
    compiled = resources;
  }

  /**
   * The resources as the build compiled them, or null when this build has no such class (classes
   * compiled without the build's step, as an IDE may). The class is loaded by name, and registers
   * itself as it is initialised: no reflection, which would make method handles at start-up.
   */
  static synchronized Compiled compiled() {
    if (!looked) {
      looked = true;
      try {
        Class.forName(COMPILED, true, PackageResource.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        // no compiled resources: read from the jar or the folder
      }
    }
    return compiled;
  }

  /** The text (UTF-8) of the resource {@code name} of this package, which must exist. */
  static String text(String name) {
    Compiled c = compiled();
    String text = c == null ? null : c.text(name);
    return text != null ? text : new String(read(name), StandardCharsets.UTF_8);
  }

  /** The bytes of the resource {@code name} of this package, if there is one. */
  static Optional<byte[]> find(String name) {
    Compiled c = compiled();
    if (c != null) {
      String text = c.text(name);
      return text == null ? Optional.empty() : Optional.of(text.getBytes(StandardCharsets.UTF_8));
    }
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
    Compiled c = compiled();
    if (c != null) {
      for (String name : c.names()) {
        if (name.startsWith(prefix) && name.endsWith(suffix)) {
          names.add(name);
        }
      }
      return names;
    }
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
