#include "models/topology/graph_util.h"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <limits>

namespace xoff::models::detail {

Graph make_graph(const Topology& topo, const std::vector<bool>* link_up) {
  Graph g(topo.nodes.size());
  for (size_t i = 0; i < topo.links.size(); ++i) {
    if (link_up == nullptr || (*link_up)[i]) boost::add_edge(topo.links[i].a, topo.links[i].b, g);
  }
  return g;
}

std::vector<int> hop_distances(const Graph& g, uint32_t source) {
  constexpr int kFar = std::numeric_limits<int>::max();
  std::vector<int> dist(boost::num_vertices(g), kFar);
  dist[source] = 0;
  boost::breadth_first_search(g, boost::vertex(source, g),
                              boost::visitor(boost::make_bfs_visitor(
                                  boost::record_distances(dist.data(), boost::on_tree_edge()))));
  for (int& d : dist) {
    if (d == kFar) d = kUnreachable;
  }
  return dist;
}

}  // namespace xoff::models::detail
