package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.matching.RequestPattern;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.QueueFiles;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * What answers one fake agent's invocations: its queue (first in, first out) and its sequences of
 * replies to patterns. Each invocation is handed its tape here, one at a time in the order the
 * invocations reached the control plane ({@link ControlPlane#onInvocation}), so a queued tape or a
 * reply goes to exactly one invocation however many arrive together; WireMock then answers with the
 * stub of that tape and journals the invocation. Removed when the fake ends.
 *
 * <p>Which answers, first to last: the sequences whose pattern the invocation matches and that have
 * a reply left (or repeat their last), the one whose reply was added last first, as WireMock orders
 * stubs of one priority; then the next queued tape; else nothing, and the stubs that need no claim
 * (the folder of {@code agentdouble serve}) or the report of no tape answer it.
 *
 * <p>A fake of the JUnit extension also has its queue in a folder ({@link QueueFiles}): each tape
 * enqueued is written there too, and a run takes the first one without asking the server while
 * there is no sequence (the folder's {@value QueueFiles#STUBS} marker says there are). A queued
 * tape is taken once, by whoever moves its file first: a run, or this class's claim for a run that
 * asked.
 */
public final class Stubs {
  /** Before the folder's tapes of {@code agentdouble serve}, which need no claim. */
  private static final int PRIORITY = 5;

  /** A tape to answer with: the id of its stub, its name, when it was added, whether it must be. */
  private record Reply(UUID stub, String name, long added, boolean mustBeUsed) {}

  private final WireMockServer server;
  private final String path;
  private final AutoCloseable claims;

  /** The queue's folder, which runs take tapes from themselves; none for {@code serve}'s. */
  private final Optional<Path> folder;

  // guarded by this
  private final List<Reply> queue = new ArrayList<>();
  private int queueTaken;
  private final List<Sequence> sequences = new ArrayList<>();
  private final List<UUID> stubs = new ArrayList<>();
  private long added;

  /** Bumped by {@link #clear()}: a sequence made before it is forgotten. */
  private int generation;

  /**
   * What answers the invocations of the fake that POSTs them to {@code path} of {@code plane}; only
   * one at a time per path.
   */
  public Stubs(ControlPlane plane, String path) {
    this(plane, path, Optional.empty());
  }

  /**
   * As {@link #Stubs(ControlPlane, String)}, the queue kept in {@code folder} too (made here), for
   * runs to take their tapes from without asking.
   */
  public Stubs(ControlPlane plane, String path, Optional<Path> folder) {
    this.server = plane.server();
    this.path = path;
    this.folder = folder.flatMap(Stubs::privateQueue);
    this.claims = plane.onInvocation(path, this::claim);
  }

  /** How many tapes were enqueued. */
  public synchronized int queued() {
    return queue.size();
  }

  /** The next invocation no sequence answers gets {@code tape}, after those enqueued before. */
  public void enqueue(Tape tape, String name) {
    enqueue(tape, name, Optional.empty());
  }

  /**
   * As {@link #enqueue(Tape, String)}, replayed with {@code timing} instead of the fake's own when
   * one is given.
   */
  public synchronized void enqueue(Tape tape, String name, Optional<Timing> timing) {
    byte[] bytes = TapeWriter.toBytes(tape);
    queue.add(add(bytes, name, timing, true));
    if (folder.isPresent()) {
      String entry = QueueFiles.entry(queue.size());
      Path meta = folder.get().resolve(entry + QueueFiles.META);
      String line = name.replace('\n', ' ').replace('\r', ' '); // the name is the meta's first line
      write(meta, (line + "\n" + timing.map(Timing::toString).orElse("") + "\n").getBytes(UTF_8));
      // the tape file appearing is what enqueues it: whole, by a rename
      write(folder.get().resolve(entry + QueueFiles.TAPE), bytes);
    }
  }

  /** A new sequence: replies to the invocations {@code match} lets through. */
  public synchronized Sequence sequence(UnaryOperator<MappingBuilder> match) {
    // from now on every run asks: a stub comes before the queue
    folder.ifPresent(f -> write(f.resolve(QueueFiles.STUBS), new byte[0]));
    Sequence sequence =
        new Sequence(match.apply(post(urlEqualTo(path))).build().getRequest(), generation);
    sequences.add(sequence);
    return sequence;
  }

  /**
   * The replies to the invocations one pattern lets through, in order: the first matching
   * invocation gets the first reply, and so on; after the last, the repeated one if any, else they
   * are left to the queue.
   */
  public final class Sequence {
    private final RequestPattern pattern;
    private final int generation;
    private final List<Reply> replies = new ArrayList<>();
    private int taken;
    private Reply repeat;

    private Sequence(RequestPattern pattern, int generation) {
      this.pattern = pattern;
      this.generation = generation;
    }

    /**
     * The next invocation this sequence answers after the replies added before gets {@code tape},
     * replayed with {@code timing} when given; a reply that need not be used ({@code mustBeUsed}
     * false: a replayed recording) is left out of {@link #unusedReplies()}.
     */
    public void reply(Tape tape, String name, Optional<Timing> timing, boolean mustBeUsed) {
      synchronized (Stubs.this) {
        check();
        replies.add(add(tape, name, timing, mustBeUsed));
      }
    }

    /** Every invocation this sequence answers after all its replies gets {@code tape}. */
    public void repeat(Tape tape, String name, Optional<Timing> timing) {
      synchronized (Stubs.this) {
        check();
        repeat = add(tape, name, timing, false);
      }
    }

    private void check() {
      if (generation != Stubs.this.generation) {
        throw new IllegalStateException(
            "this stub was made before the fake was reset; make it again after reset()");
      }
    }

    /** The reply the next invocation it answers gets, if any. */
    private Optional<Reply> due() {
      return taken < replies.size() ? Optional.of(replies.get(taken)) : Optional.ofNullable(repeat);
    }
  }

  /**
   * The stub that answers {@code invocation}, taken from its sequence or the queue; called by the
   * control plane one invocation at a time, in the order they arrived.
   */
  private synchronized Optional<UUID> claim(Request invocation) {
    Sequence answering = null;
    Reply reply = null;
    for (Sequence sequence : sequences) {
      Optional<Reply> due = sequence.due();
      if (due.isPresent()
          && (reply == null || due.get().added() > reply.added())
          && sequence.pattern.match(invocation).isExactMatch()) {
        answering = sequence;
        reply = due.get();
      }
    }
    if (answering != null) {
      if (answering.taken < answering.replies.size()) {
        answering.taken++;
      }
      return Optional.of(reply.stub());
    }
    while (queueTaken < queue.size()) {
      int entry = ++queueTaken;
      if (takeQueued(entry)) {
        return Optional.of(queue.get(entry - 1).stub());
      }
    }
    return Optional.empty();
  }

  /**
   * Takes the {@code entry}th queued tape for a run that asked: false when a run took it itself
   * (its file is gone from the queue folder).
   */
  private boolean takeQueued(int entry) {
    if (folder.isEmpty()) {
      return true;
    }
    String name = QueueFiles.entry(entry) + QueueFiles.TAPE;
    try {
      Files.move(
          folder.get().resolve(name),
          folder.get().resolve(QueueFiles.TAKEN).resolve(name),
          StandardCopyOption.ATOMIC_MOVE);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot take a queued tape in " + folder.get(), e);
    }
  }

  /** The names of the enqueued tapes no invocation has taken. */
  public synchronized List<String> unused() {
    List<String> unused = new ArrayList<>();
    for (int entry = queueTaken + 1; entry <= queue.size(); entry++) {
      if (folder.isEmpty()
          || Files.exists(folder.get().resolve(QueueFiles.entry(entry) + QueueFiles.TAPE))) {
        unused.add(queue.get(entry - 1).name());
      }
    }
    return unused;
  }

  /** The names of the sequences' replies no invocation has taken (repeats aside). */
  public synchronized List<String> unusedReplies() {
    List<String> unused = new ArrayList<>();
    for (Sequence sequence : sequences) {
      for (Reply reply : sequence.replies.subList(sequence.taken, sequence.replies.size())) {
        if (reply.mustBeUsed()) {
          unused.add(reply.name());
        }
      }
    }
    return unused;
  }

  /** The bodies of the invocations no stub answered, oldest first. */
  public List<Unmatched> unmatched() {
    List<Unmatched> unmatched = new ArrayList<>();
    List<LoggedRequest> requests = new ArrayList<>(server.findAllUnmatchedRequests());
    requests.sort(Claims.inOrderOfArrival());
    for (LoggedRequest request : requests) {
      if (request.getUrl().equals(path)) {
        unmatched.add(new Unmatched(request.getBodyAsString()));
      }
    }
    return unmatched;
  }

  /** An invocation no stub answered: the JSON the fake sent. */
  public record Unmatched(String body) {}

  /** Removes every stub of this fake and stops answering its invocations. */
  public void remove() {
    try {
      claims.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop claiming the invocations to " + path, e);
    }
    removeStubs();
  }

  /** Removes every stub and forgets the queue and the sequences: as new, for a fake reset. */
  public synchronized void clear() {
    removeStubs();
    queue.clear();
    queueTaken = 0;
    sequences.clear();
    generation++;
    folder.ifPresent(
        f -> {
          deleteFiles(f.resolve(QueueFiles.TAKEN));
          deleteFiles(f);
        });
  }

  /** Deletes the files in {@code dir} (the queue's, its tapes taken: no folder deeper). */
  private static void deleteFiles(Path dir) {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        if (!Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot empty the queue in " + dir, e);
    }
  }

  /**
   * Writes {@code bytes} into {@code file} whole, the user's only ({@link PrivateFolder#writeOwn}).
   */
  private static void write(Path file, byte[] bytes) {
    try {
      PrivateFolder.writeOwn(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * {@code queue} with its {@value QueueFiles#TAKEN} folder, made owner-only where missing, when
   * both are private ({@link PrivateFolder}: the rules the fake holds the queue to); else none, and
   * every run asks the server.
   */
  private static Optional<Path> privateQueue(Path queue) {
    if (PrivateFolder.make(queue).isEmpty()) {
      return Optional.empty();
    }
    Path taken = queue.resolve(QueueFiles.TAKEN);
    if (Files.isSymbolicLink(taken) || PrivateFolder.make(taken).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(queue);
  }

  private synchronized void removeStubs() {
    for (UUID stub : stubs) {
      server.removeStub(stub);
    }
    stubs.clear();
  }

  /** The stub that answers with {@code tape} the invocations claimed for it. */
  private Reply add(Tape tape, String name, Optional<Timing> timing, boolean mustBeUsed) {
    return add(TapeWriter.toBytes(tape), name, timing, mustBeUsed);
  }

  /** As {@link #add(Tape, String, Optional, boolean)}, the tape written as {@code tape}. */
  private Reply add(byte[] tape, String name, Optional<Timing> timing, boolean mustBeUsed) {
    UUID id = UUID.randomUUID();
    server.stubFor(
        post(urlEqualTo(path))
            .withId(id)
            .withHeader(Claims.CLAIM_HEADER, equalTo(id.toString()))
            .atPriority(PRIORITY)
            .willReturn(tapeResponse(tape, name, timing)));
    stubs.add(id);
    return new Reply(id, name, ++added, mustBeUsed);
  }

  private static ResponseDefinitionBuilder tapeResponse(
      byte[] tape, String name, Optional<Timing> timing) {
    ResponseDefinitionBuilder response =
        aResponse()
            .withStatus(200)
            .withHeader("Content-Type", "application/x-ndjson")
            .withHeader(ControlSecret.TAPE_HEADER, name);
    timing.ifPresent(t -> response.withHeader(ControlSecret.TIMING_HEADER, t.toString()));
    return response.withBody(tape);
  }
}
