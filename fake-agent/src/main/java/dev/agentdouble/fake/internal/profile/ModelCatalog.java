package dev.agentdouble.fake.internal.profile;

import dev.agentdouble.contract.AccountModels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The models of an account: what {@code models} lists, which one is current and which the server's
 * default, and the bracketed variant strings {@code --model} accepts besides the listed ids.
 *
 * <p>A built-in profile's catalog is a resource of this package that its profile names ({@code
 * models-<profile>.txt}, {@link ProfileResource}), read the first time it is needed (a replay
 * without {@code --model} never reads it). Its format: {@code #} comments and blank lines; one
 * {@code <id> - <display name>} line per model, as {@code agent models} prints it, the marks {@code
 * (current, default)}, {@code (current)} and {@code (default)} included; after a {@code [variants]}
 * line, {@code <variant> - <display name>} lines. A newer capture of {@code agent models} replaces
 * the model lines without code.
 *
 * <p>{@code --model} resolves as the CLI's model manager does: a listed id in any letter case, else
 * a variant string exactly as listed.
 *
 * <p>The real CLI asks its server for the account's list, so a test, a tape or the environment may
 * declare another ({@link #declared(AccountModels)}): ids added after the listed ones, or the whole
 * list. A declared id the catalog does not name shows its id as its display name.
 */
public final class ModelCatalog {
  private static final String VARIANTS = "[variants]";
  private static final String CURRENT_DEFAULT = " (current, default)";
  private static final String CURRENT = " (current)";
  private static final String DEFAULT = " (default)";

  private record Loaded(
      List<Model> listed,
      List<Model> variants,
      Optional<String> current,
      Optional<String> byDefault) {}

  private final String resource;
  private final ModelCatalog base;
  private final AccountModels declaration;
  private Loaded loaded;

  private ModelCatalog(String resource, Loaded loaded) {
    this(resource, null, null, loaded);
  }

  private ModelCatalog(
      String resource, ModelCatalog base, AccountModels declaration, Loaded loaded) {
    this.resource = resource;
    this.base = base;
    this.declaration = declaration;
    this.loaded = loaded;
  }

  /**
   * This catalog as the account's declaration makes it: the declared ids added after the listed
   * ones (an id listed already, in any letter case, stays where it is), or the declared ids as the
   * whole list (display names kept where this catalog names the id, no variants). The current and
   * default model stay those of this catalog while listed. Read when first asked, as this one is.
   */
  public ModelCatalog declared(AccountModels declaration) {
    return new ModelCatalog(null, this, Objects.requireNonNull(declaration, "declaration"), null);
  }

  private static Loaded apply(Loaded below, AccountModels declaration) {
    List<Model> listed = new ArrayList<>(declaration.added() ? below.listed() : List.of());
    for (String id : declaration.ids()) {
      Model known = null;
      for (Model m : below.listed()) {
        if (m.id().equalsIgnoreCase(id)) {
          known = m;
          break;
        }
      }
      if (known == null) {
        listed.add(new Model(id, id));
      } else if (!declaration.added()) {
        listed.add(known);
      }
    }
    return new Loaded(
        List.copyOf(listed),
        declaration.added() ? below.variants() : List.of(),
        stillListed(below.current(), listed),
        stillListed(below.byDefault(), listed));
  }

  private static Optional<String> stillListed(Optional<String> id, List<Model> listed) {
    if (id.isPresent()) {
      for (Model m : listed) {
        if (m.id().equals(id.get())) {
          return id;
        }
      }
    }
    return Optional.empty();
  }

  /** The catalog in the resource {@code name} of this package, read when first asked. */
  static ModelCatalog resource(String name) {
    return new ModelCatalog(Objects.requireNonNull(name, "name"), null);
  }

  /**
   * The resource this catalog reads, for the build's snapshot of a profile ({@link
   * ResourceCompiler.SnapshotWriter}); a catalog made otherwise (from a list, or declared) is
   * refused.
   */
  String resourceName() {
    if (resource == null || base != null || declaration != null) {
      throw new IllegalStateException("a model catalog that is no resource's: " + this);
    }
    return resource;
  }

  /**
   * A catalog of {@code listed} models without variants whose current and default model is the
   * first named {@code defaultName} (a profile file's {@code models} and {@code model}).
   */
  static ModelCatalog of(List<Model> listed, String defaultName) {
    Optional<String> byDefault = Optional.empty();
    for (Model m : listed) {
      if (m.name().equals(defaultName)) {
        byDefault = Optional.of(m.id());
        break;
      }
    }
    return new ModelCatalog(null, new Loaded(List.copyOf(listed), List.of(), byDefault, byDefault));
  }

  /** Parses the text of a catalog; {@code source} names it in messages. */
  static ModelCatalog parse(String source, String text) {
    List<Model> listed = new ArrayList<>();
    List<Model> variants = new ArrayList<>();
    Optional<String> current = Optional.empty();
    Optional<String> byDefault = Optional.empty();
    boolean inVariants = false;
    int number = 0;
    for (String line : text.split("\n", -1)) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      if (line.equals(VARIANTS)) {
        inVariants = true;
        continue;
      }
      boolean isCurrent = false;
      boolean isDefault = false;
      String entry = line;
      if (!inVariants && entry.endsWith(CURRENT_DEFAULT)) {
        entry = entry.substring(0, entry.length() - CURRENT_DEFAULT.length());
        isCurrent = true;
        isDefault = true;
      } else if (!inVariants && entry.endsWith(CURRENT)) {
        entry = entry.substring(0, entry.length() - CURRENT.length());
        isCurrent = true;
      } else if (!inVariants && entry.endsWith(DEFAULT)) {
        entry = entry.substring(0, entry.length() - DEFAULT.length());
        isDefault = true;
      }
      int dash = entry.indexOf(" - ");
      if (dash <= 0 || dash + 3 >= entry.length()) {
        throw new IllegalStateException(
            source + ":" + number + ": not \"<id> - <display name>\": " + line);
      }
      Model model = new Model(entry.substring(0, dash), entry.substring(dash + 3));
      if (inVariants) {
        variants.add(model);
        continue;
      }
      listed.add(model);
      if (isCurrent && current.isEmpty()) {
        current = Optional.of(model.id());
      }
      if (isDefault && byDefault.isEmpty()) {
        byDefault = Optional.of(model.id());
      }
    }
    return new ModelCatalog(
        null, new Loaded(List.copyOf(listed), List.copyOf(variants), current, byDefault));
  }

  private synchronized Loaded loaded() {
    if (loaded == null) {
      loaded =
          base != null
              ? apply(base.loaded(), declaration)
              : parse(resource, new String(PackageResource.read(resource), StandardCharsets.UTF_8))
                  .loaded();
    }
    return loaded;
  }

  /** What {@code models} lists, in order. */
  public List<Model> listed() {
    return loaded().listed();
  }

  /** The variant strings {@code --model} accepts besides the listed ids. */
  List<Model> variants() {
    return loaded().variants();
  }

  /** The id of the account's current model, marked {@code (current)}. */
  public Optional<String> current() {
    return loaded().current();
  }

  /** The id of the server's default model, marked {@code (default)}. */
  public Optional<String> byDefault() {
    return loaded().byDefault();
  }

  /** The listed ids, in order: what the refusal of an unknown model names. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (Model m : listed()) {
      ids.add(m.id());
    }
    return ids;
  }

  /** The model {@code --model requested} selects: a listed id in any case, else a variant. */
  public Optional<Model> resolve(String requested) {
    String lower = requested.toLowerCase(Locale.ROOT);
    for (Model m : listed()) {
      if (m.id().toLowerCase(Locale.ROOT).equals(lower)) {
        return Optional.of(m);
      }
    }
    for (Model v : variants()) {
      if (v.id().equals(requested)) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ModelCatalog other)) {
      return false;
    }
    if (resource != null && resource.equals(other.resource)) {
      return true;
    }
    return loaded().equals(other.loaded());
  }

  @Override
  public int hashCode() {
    return loaded().hashCode();
  }

  @Override
  public String toString() {
    if (base != null) {
      return base + " with " + declaration;
    }
    return resource != null ? resource : listed().size() + " models";
  }
}
