import cytoscape from 'cytoscape';
import { html } from 'htm/preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, scopeText } from '../api.js';
import { ErrorLine, Provenance, Status, useLoad } from './common.js';

const PALETTE = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#4b5563'];

function colourOf(type, types) {
  return PALETTE[types.indexOf(type) % PALETTE.length];
}

function elementsOf({ nodes, edges }) {
  const types = [...new Set(nodes.map((node) => node.type))].sort();
  const known = new Set(nodes.map((node) => node.id));
  return [
    ...nodes.map((node) => ({
      data: { id: node.id, label: node.name, colour: colourOf(node.type, types), status: node.status },
    })),
    ...edges
      .filter((edge) => known.has(edge.from) && known.has(edge.to))
      .map((edge) => ({
        data: { id: edge.id, source: edge.from, target: edge.to, label: edge.relation, status: edge.status },
      })),
  ];
}

const STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'background-color': 'data(colour)',
      color: '#111827',
      'font-size': 11,
      'text-valign': 'bottom',
      'text-margin-y': 4,
      width: 22,
      height: 22,
    },
  },
  {
    selector: 'edge',
    style: {
      label: 'data(label)',
      'font-size': 9,
      color: '#4b5563',
      'curve-style': 'bezier',
      'target-arrow-shape': 'triangle',
      width: 1.5,
      'line-color': '#9ca3af',
      'target-arrow-color': '#9ca3af',
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.8,
    },
  },
  { selector: '[status = "superseded"]', style: { 'line-style': 'dashed', opacity: 0.45 } },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#111827' } },
  { selector: '.impacted', style: { 'border-width': 3, 'border-color': '#dc2626' } },
  { selector: '.faded', style: { opacity: 0.2 } },
];

function NodeDetail({ scope, node, graph, onImpact }) {
  const impact = useLoad(
    () => api('/api/graph/impact', { query: { scope, node: node.id } }),
    [scope, node.id],
  );
  useEffect(() => {
    onImpact(impact.data ? impact.data.affected.map((entry) => entry.node.id) : []);
  }, [impact.data, onImpact]);
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const touching = graph.edges.filter((edge) => edge.from === node.id || edge.to === node.id);
  return html`<aside class="detail" aria-label="Node detail">
    <h3>${node.name}</h3>
    <p class="muted">${node.type} at ${scopeText(node.scope)} · <${Status} status=${node.status} /></p>
    ${node.aliases.length ? html`<p class="small">also: ${node.aliases.join(', ')}</p>` : ''}
    <p class="small"><${Provenance} provenance=${node.provenance} /></p>
    <h4>Edges</h4>
    <ul class="edges">
      ${touching.map(
        (edge) => html`<li key=${edge.id}>
          ${names.get(edge.from) ?? edge.from} <b>${edge.relation}</b> ${names.get(edge.to) ?? edge.to}
          ${edge.status === 'active' ? '' : html` <${Status} status=${edge.status} />`}
          <span class="muted small"> · <${Provenance} provenance=${edge.provenance} /></span>
        </li>`,
      )}
    </ul>
    <h4>Impact</h4>
    <${ErrorLine} error=${impact.error} />
    ${
      impact.data
        ? impact.data.affected.length === 0
          ? html`<p class="muted">Nothing depends on it.</p>`
          : html`<ul class="impact">
              ${impact.data.affected.map(
                (entry) =>
                  html`<li key=${entry.node.id}>${entry.node.name} <span class="muted small">${entry.depth} hop${entry.depth === 1 ? '' : 's'}</span></li>`,
              )}
            </ul>`
        : ''
    }
    ${impact.data?.through?.length ? html`<p class="small muted">through ${impact.data.through.map((n) => n.name).join(', ')}</p>` : ''}
  </aside>`;
}

/** The graph as an interactive picture (pan, zoom, select a node for its edges and impact). */
export function GraphView({ scope, search }) {
  const graph = useLoad(() => api('/api/graph', { query: { scope } }), [scope]);
  const container = useRef(null);
  const cy = useRef(null);
  const [selected, setSelected] = useState(undefined);

  useEffect(() => {
    if (!graph.data || !container.current) return undefined;
    const instance = cytoscape({
      container: container.current,
      elements: elementsOf(graph.data),
      style: STYLE,
      layout: { name: 'preset' },
    });
    const layout = instance.layout({ name: 'cose', animate: false, padding: 40 });
    // A small graph fitted to the box would be drawn huge: cap the zoom and centre it instead.
    layout.one('layoutstop', () => {
      if (instance.zoom() > 1.6) {
        instance.zoom(1.6);
        instance.center();
      }
    });
    layout.run();
    const resized = new ResizeObserver(() => instance.resize());
    resized.observe(container.current);
    instance.on('tap', 'node', (event) => setSelected(event.target.id()));
    instance.on('tap', (event) => {
      if (event.target === instance) {
        setSelected(undefined);
        instance.nodes().removeClass('impacted');
      }
    });
    cy.current = instance;
    // Exposed for scripting the page (the browser tests find a node's position through it).
    window.strataGraph = instance;
    return () => {
      resized.disconnect();
      instance.destroy();
    };
  }, [graph.data]);

  useEffect(() => {
    const instance = cy.current;
    if (!instance) return;
    instance.nodes().removeClass('faded');
    if (!search) return;
    const needle = search.toLowerCase();
    instance.nodes().forEach((node) => {
      if (!String(node.data('label')).toLowerCase().includes(needle)) node.addClass('faded');
    });
  }, [search, graph.data]);

  const highlight = useCallback((ids) => {
    const instance = cy.current;
    if (!instance) return;
    instance.nodes().removeClass('impacted');
    for (const id of ids) instance.getElementById(id).addClass('impacted');
  }, []);

  const node = graph.data?.nodes.find((n) => n.id === selected);
  const count = graph.data ? `${graph.data.nodes.length} nodes, ${graph.data.edges.length} edges` : '';
  return html`<section class="split">
    <div class="list">
      <h2>Graph <span class="muted">${count}</span></h2>
      <${ErrorLine} error=${graph.error} />
      ${graph.data && graph.data.nodes.length === 0 ? html`<p class="muted">No graph at this scope.</p>` : ''}
      <div class="graph" ref=${container} aria-label="Graph"></div>
      <p class="small muted">Drag to pan, scroll to zoom, click a node for its edges and what depends on it.</p>
    </div>
    ${
      node
        ? html`<${NodeDetail} key=${node.id} scope=${scope} node=${node} graph=${graph.data} onImpact=${highlight} />`
        : html`<aside class="detail muted">Select a node to see its edges and what depends on it (outlined in red).</aside>`
    }
  </section>`;
}
