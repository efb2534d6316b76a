package dev.agentdouble.fake.internal.profile;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.agentdouble.json.Json;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TextStyle;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a {@link Profile} from a JSON file with jackson-core's streaming parser; kept apart from
 * {@code Profile} so that the built-in profiles load no JSON classes.
 */
final class ProfileFile {
  private static final List<String> FIELDS =
      List.of(
          "base",
          "version",
          "loggedIn",
          "email",
          "defaultOutputFormat",
          "textStyle",
          "model",
          "models",
          "about",
          "trustGate",
          "apiKeyValid");

  private ProfileFile() {}

  /** Reads the profile file {@code file} (as the user gave it, used in messages). */
  static Profile read(String file) throws ProfileException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(Path.of(file));
    } catch (NoSuchFileException e) {
      throw new ProfileException(
          file,
          "no such file ("
              + Profile.ENV
              + " names a file or a built-in profile: "
              + String.join(", ", ProfileResource.names())
              + ")");
    } catch (AccessDeniedException e) {
      throw new ProfileException(file, "permission denied");
    } catch (IOException | RuntimeException e) {
      throw new ProfileException(file, "cannot read: " + e.getMessage());
    }
    return parse(file, bytes);
  }

  /** Parses the bytes of a profile file named {@code source}. */
  static Profile parse(String source, byte[] json) throws ProfileException {
    try (JsonParser p = Json.factory().createParser(json)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new ProfileException(source, "empty file; a profile is a JSON object");
      }
      if (first != JsonToken.START_OBJECT) {
        throw problem(source, p, "a profile is a JSON object");
      }
      Fields f = new Fields();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken value = p.nextToken();
        switch (key) {
          case "base" -> f.base = string(source, p, key);
          case "version" -> f.version = string(source, p, key);
          case "loggedIn" -> {
            if (!value.isBoolean()) {
              throw problem(source, p, "\"loggedIn\" must be true or false");
            }
            f.loggedIn = p.getBooleanValue();
          }
          case "email" -> f.email = string(source, p, key);
          case "defaultOutputFormat" -> {
            String name = string(source, p, key);
            f.defaultOutputFormat =
                OutputFormat.fromCliName(name)
                    .orElseThrow(
                        () ->
                            problem(
                                source,
                                p,
                                "\"defaultOutputFormat\" must be text, json or stream-json, was \""
                                    + name
                                    + "\""));
          }
          case "textStyle" -> {
            String name = string(source, p, key);
            f.textStyle =
                TextStyle.fromName(name)
                    .orElseThrow(
                        () ->
                            problem(
                                source,
                                p,
                                "\"textStyle\" must be actions or final, was \"" + name + "\""));
          }
          case "model" -> f.model = string(source, p, key);
          case "models" -> f.models = models(source, p);
          case "about" -> f.about = string(source, p, key);
          case "trustGate" -> {
            if (!value.isBoolean()) {
              throw problem(source, p, "\"trustGate\" must be true or false");
            }
            f.trustGate = p.getBooleanValue();
          }
          case "apiKeyValid" -> {
            if (!value.isBoolean()) {
              throw problem(source, p, "\"apiKeyValid\" must be true or false");
            }
            f.apiKeyValid = p.getBooleanValue();
          }
          default ->
              throw problem(
                  source,
                  p,
                  "unknown field \"" + key + "\"; a profile has " + String.join(", ", FIELDS));
        }
      }
      if (p.nextToken() != null) {
        throw problem(source, p, "more than one JSON value; a profile is one JSON object");
      }
      return f.build(source);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new ProfileException(
          source,
          (at == null ? "" : "line " + at.getLineNr() + ": ")
              + "not valid JSON: "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ProfileException(source, "cannot read: " + e.getMessage());
    }
  }

  private static final class Fields {
    String base = ProfileResource.defaultName();
    String version;
    Boolean loggedIn;
    String email;
    OutputFormat defaultOutputFormat;
    TextStyle textStyle;
    String model;
    List<Model> models;
    String about;
    Boolean trustGate;
    Boolean apiKeyValid;

    Profile build(String source) throws ProfileException {
      Optional<Profile> b = ProfileResource.load(base);
      if (b.isEmpty()) {
        throw new ProfileException(
            source,
            "\"base\" must be " + oneOf(ProfileResource.names()) + ", was \"" + base + "\"");
      }
      Profile d = b.get();
      String defaultName = model != null ? model : d.model();
      return new Profile(
          source,
          version != null ? version : d.version(),
          loggedIn != null ? loggedIn : d.loggedIn(),
          email != null ? email : d.email(),
          defaultOutputFormat != null ? defaultOutputFormat : d.defaultOutputFormat(),
          textStyle != null ? textStyle : d.textStyle(),
          defaultName,
          models != null ? ModelCatalog.of(models, defaultName) : d.catalog(),
          about != null ? Optional.of(about) : d.about(),
          trustGate != null ? d.behaviour().withTrustGate(trustGate) : d.behaviour(),
          apiKeyValid != null ? apiKeyValid : d.apiKeyValid());
    }
  }

  /** {@code a, b or c}. */
  private static String oneOf(List<String> names) {
    if (names.size() < 2) {
      return String.join("", names);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " or "
        + names.get(names.size() - 1);
  }

  private static List<Model> models(String source, JsonParser p)
      throws IOException, ProfileException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw problem(source, p, "\"models\" must be a list of {\"id\": ..., \"name\": ...}");
    }
    List<Model> models = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      int index = models.size();
      String what = "\"models\"[" + index + "]";
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw problem(source, p, what + " must be an object {\"id\": ..., \"name\": ...}");
      }
      String id = null;
      String name = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        switch (key) {
          case "id" -> id = string(source, p, what + ".id");
          case "name" -> name = string(source, p, what + ".name");
          default ->
              throw problem(
                  source,
                  p,
                  "unknown field \"" + key + "\" in " + what + "; a model has id and name");
        }
      }
      if (id == null || name == null) {
        throw problem(source, p, what + " needs both \"id\" and \"name\"");
      }
      models.add(new Model(id, name));
    }
    return models;
  }

  private static String string(String source, JsonParser p, String key)
      throws IOException, ProfileException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw problem(
          source, p, (key.startsWith("\"") ? key : "\"" + key + "\"") + " must be a string");
    }
    return p.getText();
  }

  private static ProfileException problem(String source, JsonParser p, String problem) {
    return new ProfileException(source, "line " + p.currentLocation().getLineNr() + ": " + problem);
  }
}
