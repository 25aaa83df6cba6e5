package locate

import "github.com/edapply/edapply/edit"

// Stands reports whether e's new text stands in d's content as the ladder
// finds a text: at any rung that finds its old text, a tool call's rescue
// of a first line quoted after its indentation and the spacing rung
// included, at least once, anywhere. An edit found already applied holds
// in the content a whole reply leaves while its new text stands there: a
// later edit of the reply that moves it away or changes it makes the
// claim false. An empty new text stands anywhere.
func (d *Doc) Stands(e *edit.Edit) bool {
	np := newPattern(e.New)
	if np.text == "" {
		return true
	}
	d.settle()
	d.flush()
	if len(d.text) > maxContent {
		return false // not searched: an edit forced for it is refused (errTooLarge)
	}
	if d.fin == nil {
		d.fin = newFinder(d.text)
	}
	m := &matcher{f: d.fin, e: e, opts: d.opts}
	if hits, _ := m.find(np); len(hits) > 0 {
		return true
	}
	if m.rescuable() && len(m.cutHits(np)) > 0 {
		return true
	}
	return !d.opts.Strict && !np.blank && spacedApart(np) && len(m.search(np, levelSpacing)) > 0
}
