// dlsched-simgrid: replays a star schedule in SimGrid (dlsched simulate runs it: SimGrid's
// engine can be started once per process, so the replay is a program of its own, never a
// call the caller's process would be trapped by).
//
//     dlsched-simgrid PLATFORM.xml PLAN [--cfg=KEY:VALUE ...] [--log=...]
//
// PLAN, written by dlsched simulate:
//     dlsched-simgrid-plan 1
//     originator HOST                 the host that sends
//     send HOST BYTES FLOPS           one line per send, in the order of the sends; a host
//     ...                             may come back (multi-installment: its chunks)
// The originator sends one message after the other (the single port: each send starts
// when the previous one has arrived); each host computes its chunks in arrival order, FLOPS
// on its own host, as soon as the chunk has arrived and the previous one is computed.
// Output, one line per send in the plan's order (times in seconds, %.17g; the host escaped
// as in the plan):
//     HOST SEND_START SEND_END COMPUTE_START FINISH
// then "makespan T". Exit status 0; 2 for a bad plan or platform (a message on stderr);
// SimGrid's own errors end the process as SimGrid ends it (dlsched simulate reports it).
//
//     dlsched-simgrid --routes PLATFORM.xml HOSTFILE
//
// SimGrid's own reading of a platform, for the checks of measurements made on it (smpi/,
// tests/simgrid/): for each host of HOSTFILE (one name a line, as smpirun reads it), in its
// order, "HOST SPEED LATENCY BANDWIDTH": its speed in flop/s, and the route from the
// file's first host to it, its latency (the sum of its links', s) and its bandwidth (the
// smallest of its links', bytes/s; 0 and inf for the first host itself).
#include <simgrid/s4u.hpp>

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct send_t {
    std::string host;
    uint64_t bytes = 0;
    double flops = 0;
    double send_start = NAN, send_end = NAN, compute_start = NAN, finish = NAN;
};

std::vector<send_t> sends;
std::string originator;

// The plan's tokens are separated by single spaces; host names are written with their
// spaces and special characters escaped as %XX (dlsched simulate does it), so a name is one
// token.
std::string unescape(const char *s)
{
    std::string out;
    for (; *s; s++) {
        if (*s == '%' && s[1] && s[2]) {
            char hex[3] = {s[1], s[2], 0};
            out += static_cast<char>(strtol(hex, nullptr, 16));
            s += 2;
        } else {
            out += *s;
        }
    }
    return out;
}

bool read_plan(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == nullptr) {
        fprintf(stderr, "dlsched-simgrid: %s: cannot open the plan\n", path);
        return false;
    }
    char line[8192], word[8192];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f) != nullptr) {
        lineno++;
        if (lineno == 1) {
            ok = strncmp(line, "dlsched-simgrid-plan 1", 22) == 0;
            continue;
        }
        uint64_t bytes;
        double flops;
        if (sscanf(line, "originator %8191s", word) == 1) {
            originator = unescape(word);
        } else if (sscanf(line, "send %8191s %" SCNu64 " %lf", word, &bytes, &flops) == 3 &&
                   std::isfinite(flops) && flops >= 0) {
            send_t s;
            s.host = unescape(word);
            s.bytes = bytes;
            s.flops = flops;
            sends.push_back(s);
        } else {
            ok = false;
        }
    }
    fclose(f);
    if (!ok || originator.empty())
        fprintf(stderr, "dlsched-simgrid: %s:%d: not a plan line\n", path, lineno);
    return ok && !originator.empty();
}

// A host name as one token, as the plan writes it (spaces, '%' and control bytes as %XX).
void print_escaped(const std::string &name)
{
    for (unsigned char c : name) {
        if (c <= ' ' || c == '%' || c == 0x7f)
            printf("%%%02X", c);
        else
            putchar(c);
    }
}

int token; // a message's payload: SimGrid sends no null pointer

void master()
{
    for (auto &s : sends) {
        s.send_start = sg4::Engine::get_clock();
        sg4::Mailbox::by_name(s.host)->put(&token, s.bytes);
        s.send_end = sg4::Engine::get_clock();
    }
}

// The host's chunks, in the order of the sends.
void worker(std::string host, std::vector<size_t> mine)
{
    sg4::Mailbox *mb = sg4::Mailbox::by_name(host);
    // a permanent receiver: chunks arrive while the host computes (the originator's port
    // does not wait for the host)
    mb->set_receiver(sg4::Actor::self());
    for (size_t k : mine) {
        mb->get<int>();
        send_t &s = sends[k];
        s.compute_start = sg4::Engine::get_clock();
        if (s.flops > 0)
            sg4::this_actor::execute(s.flops);
        s.finish = sg4::Engine::get_clock();
    }
}

} // namespace

// --routes: see the top of the file.
static int routes(sg4::Engine &e, const char *platform, const char *hostfile)
{
    e.load_platform(platform);
    e.seal_platform(); // (the routes of some zones, Floyd's, are computed then)
    FILE *f = fopen(hostfile, "r");
    if (f == nullptr) {
        fprintf(stderr, "dlsched-simgrid: %s: cannot open: %s\n", hostfile, strerror(errno));
        return 2;
    }
    sg4::Host *first = nullptr;
    char line[1024];
    int rc = 0;
    for (int no = 1; fgets(line, sizeof line, f) != nullptr; no++) {
        std::string name(line, strcspn(line, " \t\r\n"));
        if (name.empty())
            continue;
        sg4::Host *h = e.host_by_name_or_null(name);
        if (h == nullptr) {
            fprintf(stderr, "dlsched-simgrid: %s:%d: the platform has no host \"%s\"\n",
                    hostfile, no, name.c_str());
            rc = 2;
            break;
        }
        if (first == nullptr)
            first = h;
        double latency = 0, bandwidth = INFINITY;
        if (h != first) {
            std::vector<sg4::Link *> links;
            first->route_to(h, links, &latency);
            for (const sg4::Link *l : links)
                bandwidth = std::fmin(bandwidth, l->get_bandwidth());
        }
        printf("%s %.17g %.17g %.17g\n", name.c_str(), h->get_speed(), latency, bandwidth);
    }
    fclose(f);
    return rc;
}

int main(int argc, char **argv)
{
    sg4::Engine e(&argc, argv);
    if (argc == 4 && strcmp(argv[1], "--routes") == 0)
        return routes(e, argv[2], argv[3]);
    if (argc != 3) {
        fprintf(stderr, "usage: dlsched-simgrid PLATFORM.xml PLAN [--cfg=KEY:VALUE ...]\n");
        return 2;
    }
    if (!read_plan(argv[2]))
        return 2;
    e.load_platform(argv[1]);
    sg4::Host *o = e.host_by_name_or_null(originator);
    if (o == nullptr) {
        fprintf(stderr, "dlsched-simgrid: the platform has no host \"%s\" (the originator)\n",
                originator.c_str());
        return 2;
    }
    std::map<std::string, std::vector<size_t>> chunks;
    for (size_t k = 0; k < sends.size(); k++)
        chunks[sends[k].host].push_back(k);
    for (auto &c : chunks) {
        sg4::Host *h = e.host_by_name_or_null(c.first);
        if (h == nullptr) {
            fprintf(stderr, "dlsched-simgrid: the platform has no host \"%s\"\n",
                    c.first.c_str());
            return 2;
        }
        sg4::Actor::create("worker", h, worker, c.first, c.second);
    }
    sg4::Actor::create("originator", o, master);
    e.run();
    double makespan = 0;
    for (auto &s : sends) {
        print_escaped(s.host);
        printf(" %.17g %.17g %.17g %.17g\n", s.send_start, s.send_end, s.compute_start,
               s.finish);
        makespan = std::fmax(makespan, s.finish);
    }
    printf("makespan %.17g\n", makespan);
    return 0;
}
