package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.testing.TestProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Many invocations of the fake at once, against one control plane: real runs started before any is
 * waited for, or the POST a run sends, from as many threads released together. Used by the tests of
 * this package and of {@code internal}; every wait is bounded.
 */
public final class Together {
  private Together() {}

  /**
   * Starts a run of {@code executable} for each of {@code prompts} ({@code -p --trust
   * --output-format stream-json PROMPT}, {@code env} added, stdin from /dev/null) before waiting
   * for any, and returns how each ended, by prompt.
   */
  public static Map<String, Runs.Result> run(
      Path executable, Map<String, String> env, List<String> prompts) {
    Map<String, TestProcess> runs = new LinkedHashMap<>();
    try {
      for (String prompt : prompts) {
        List<String> args = List.of("-p", "--trust", "--output-format", "stream-json", prompt);
        runs.put(
            prompt, Runs.start(executable, env, args).patience(Duration.ofSeconds(120)).start());
      }
      Map<String, Runs.Result> ended = new LinkedHashMap<>();
      for (Map.Entry<String, TestProcess> run : runs.entrySet()) {
        TestProcess p = run.getValue();
        int exit = p.waitFor();
        ended.put(run.getKey(), new Runs.Result(p.out(), p.err(), exit));
      }
      return ended;
    } finally {
      runs.values().forEach(TestProcess::close);
    }
  }

  /**
   * Sends the invocation a run would send for each of {@code prompts} to {@code uri} (a control
   * plane's {@code URL/invocations}) with {@code secret}, all at once from as many threads, and
   * returns the tape each got (the answer's {@link ControlSecret#TAPE_HEADER}), by prompt; each
   * must get one (HTTP 200).
   */
  public static Map<String, String> post(URI uri, String secret, List<String> prompts) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < prompts.size(); i++) {
      String prompt = prompts.get(i);
      byte[] body =
          InvocationRecord.builder()
              .argv(List.of("-p", "--trust", prompt))
              .prompt(prompt)
              .cwd("/work")
              .outputFormat("text")
              .pid(10_000 + i)
              .cli("cursor-agent")
              .build()
              .json();
      HttpRequest request =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(60))
              .header(ControlSecret.HEADER, secret)
              .POST(HttpRequest.BodyPublishers.ofByteArray(body))
              .build();
      CompletableFuture<HttpResponse<String>> answer = new CompletableFuture<>();
      answers.add(answer);
      Thread thread =
          new Thread(
              () -> {
                try {
                  if (!go.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never released");
                  }
                  answer.complete(http.send(request, HttpResponse.BodyHandlers.ofString()));
                } catch (Exception e) {
                  answer.completeExceptionally(e);
                }
              },
              "together-" + i);
      thread.start();
      threads.add(thread);
    }
    go.countDown();
    try {
      Map<String, String> tapes = new LinkedHashMap<>();
      for (int i = 0; i < prompts.size(); i++) {
        HttpResponse<String> answer = answers.get(i).get(90, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).as("%s: %s", prompts.get(i), answer.body()).isEqualTo(200);
        tapes.put(
            prompts.get(i), answer.headers().firstValue(ControlSecret.TAPE_HEADER).orElse(""));
      }
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(10));
      }
      return tapes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
