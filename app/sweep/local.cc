#include "app/sweep/local.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <stdexcept>

extern char** environ;

namespace xoff::app::sweep {
namespace {

using Clock = std::chrono::steady_clock;

pid_t spawn_shell(const std::string& cmd) {
  std::string sh = "/bin/sh";
  std::string flag = "-c";
  std::string body = cmd;
  char* argv[] = {sh.data(), flag.data(), body.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ);
  if (rc != 0) throw std::runtime_error(std::string("cannot start /bin/sh: ") + std::strerror(rc));
  return pid;
}

}  // namespace

std::vector<LocalResult> run_local(
    const std::vector<std::string>& commands, const std::vector<size_t>& todo, int jobs,
    const std::function<void(const LocalResult&, size_t done)>& on_done) {
  if (jobs < 1) jobs = 1;
  struct Running {
    size_t index;
    Clock::time_point start;
  };
  std::map<pid_t, Running> running;
  std::vector<LocalResult> results;
  size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < static_cast<size_t>(jobs)) {
      const size_t i = todo[next++];
      running.emplace(spawn_shell(commands.at(i)), Running{i, Clock::now()});
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    LocalResult r;
    r.index = it->second.index;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    running.erase(it);
    results.push_back(r);
    if (on_done) on_done(r, results.size());
  }
  return results;
}

}  // namespace xoff::app::sweep
