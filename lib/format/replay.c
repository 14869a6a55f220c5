/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the replay page (arbiter(1), --replay),
 * one self-contained HTML file that steps through the turn's trace: the
 * picture of the board as the turn began (svg.c, SVG_START) inline, the
 * trace's text lines beside it (emit_trace(), as --trace-file --text
 * writes them, or a player's cut), and the steps as JSON, worked out
 * here from the trace's events: for each, the units and cells it is
 * about, its cost, the ruling of its order, and the units whose mark
 * changes (their cell, or their pose on a table, whether eliminated or
 * gone from the board, their strength).  The page's script moves the
 * marks; nothing is fetched, so the page works from file:// and as a
 * mail attachment.
 *
 * An event moves its units when it has a "to" cell (every rule system's
 * step, hop, retreat, translocation, action; not a route planned, nor
 * a part of an xconq action) or a pose ("x", "y", "facing": the table's
 * steps and settings down), and more (moves(), below).  An event changes
 * the cells (cevent(), below) when it gives a cell an owner, destroys a
 * feature, or brings armies into a territory or takes them out.  The
 * picture is drawn with SVG_HOOKS, so that the script finds the parts it
 * changes: each owner's outline, a territory's counter, a cell's
 * features, the title.  What the trace does not say step by step (what
 * a player's cut leaves out, above all) is set at the last step, where
 * every unit stands and every cell is as the result says; the page's
 * data counts those units and cells ("fixed" and "cfixed": 0 in every
 * case of the casebook, for the umpire's page; tests/replay.py).  A
 * player's page (player >= 0) shows the player's cut of the trace only:
 * the other players' hidden orders are in none of its lines, steps or
 * rulings, and the cells change on its steps by what they show (and by
 * the player's own armies leaving their territories) only.
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "json/doc.h"

/* A cell's state as the page shows it: its owner (-1 neutral), its
 * counter (a territory's armies; 0 where the board has none), its
 * features. */
struct cstate {
	int		 owner;
	int		 count;
	uint32_t	 feat;
};

/* The cells as the steps go: now, as the last step written shows them
 * (shown), the cells changed since (dirty), the cells any step changed
 * (touched: their start goes in the page's data), and territory's
 * armies on the move, by order (pk). */
struct cells {
	struct cstate	*now, *shown;
	int		*dirty;
	size_t		 ndirty;
	bool		*isdirty, *touched;
	long		*pk;
	bool		 counts;	/* the board has a counter */
};

/* A unit's state as the page shows it. */
struct ustate {
	int		 at;		/* its cell, or -1 */
	struct pose	 pose;		/* on a table */
	int		 st;		/* 0 on the board, 1 eliminated, 2 left
					 * the world */
	int		 str;
	int		 ord;		/* the order that last moved it, or -1 */
	int		 pat;		/* and where it stood before that order */
	struct pose	 ppose;
};

static const char replay_css[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:0;color:#000;"
	"background:#fff}\n"
	"header{padding:8px 12px;border-bottom:1px solid #ccc;"
	"display:flex;flex-wrap:wrap;gap:8px;align-items:center}\n"
	"header h1{font-size:16px;margin:0 12px 0 0}\n"
	"button{font-size:14px;padding:4px 10px}\n"
	"#step{font-weight:bold;min-width:9em}\n"
	"main{display:flex;align-items:flex-start}\n"
	/* The board and the panel each scroll in their own box, under the
	 * header, which stays. */
	"#board{flex:1 1 auto;overflow:auto;padding:8px;"
	"height:calc(100vh - 60px);box-sizing:border-box}\n"
	"#side{flex:0 0 38%;max-width:38%;padding:8px;"
	"border-left:1px solid #ccc;height:calc(100vh - 60px);"
	"display:flex;flex-direction:column}\n"
	"#info{flex:0 0 auto;background:#f4f4f4;padding:6px;"
	"margin-bottom:6px;"
	"font-size:13px;min-height:4.5em}\n"
	/* A long ruling wraps beside its name, not under it. */
	"#info div{display:flex;gap:.4em}#info b{flex:0 0 4em}\n"
	"#trace{font-family:'DejaVu Sans Mono',monospace;font-size:11px;"
	"overflow:auto;flex:1 1 auto;margin:0;padding-left:3.5em}\n"
	/* Lines broken between words where they can be, in a word where
	 * one is longer than the panel. */
	"#trace li{white-space:pre-wrap;overflow-wrap:anywhere;"
	"padding:1px 2px;cursor:pointer}\n"
	"#trace li:hover{background:#eef3fb}\n"
	"#trace li.cur{background:#ffe08a;outline:1px solid #c90}\n"
	"#trace li:focus{outline:2px solid #1a5fb4;outline-offset:-1px}\n"
	"g[data-unit].cur rect,g[data-unit].cur polygon.base"
	"{stroke:#ff00aa;stroke-width:3}\n"
	"g[data-unit][data-state=eliminated],"
	"g[data-unit][data-state=left_world]{opacity:.35}\n"
	"#rp-hl{pointer-events:none}\n"
	/* A phone: the board above, the step and the trace under it. */
	"@media (max-width:700px){main{flex-direction:column}"
	"header{padding:6px 8px;gap:6px}"
	"button{font-size:13px;padding:3px 6px}#step{min-width:0}"
	"#board{height:auto;max-height:50vh;width:100%}"
	"#side{flex:0 0 auto;max-width:none;width:100%;height:auto;"
	"box-sizing:border-box;border-left:none;border-top:1px solid #ccc}"
	"#trace{max-height:24vh;padding-left:2.5em}"
	"header h1{flex:0 0 100%;margin:0}}\n";

/*
 * The script: D is the data; marks are the units' <g data-unit> of the
 * picture, moved by a transform from where the picture drew them (as the
 * turn began).  show(k) sets every mark as it stands after step k (0:
 * the start), so each button and key is one call.
 */
static const char *const replay_js[] = {
	"(function(){\n"
	"'use strict';\n"
	"var D=JSON.parse(document.getElementById('replay-data')"
	".textContent);\n"
	"var svg=document.querySelector('#board svg');\n"
	"var N=D.steps.length,cur=0,U=D.units,marks=[],base=[],cc={};\n"
	"var lis=document.querySelectorAll('#trace li');\n"
	"var NS='http://www.w3.org/2000/svg';\n"
	/* The cells: their start (D.cells), each step's changes (cc), the
	 * last step's (D.cfix); drawn by the picture's hooks (SVG_HOOKS). */
	"var CS={};D.cells.forEach(function(c){CS[c[0]]=c.slice(1);});\n"
	"function hook(a,l){return svg.querySelector('['+a+'=\"'+"
	"CSS.escape(l)+'\"]');}\n"
	"var cshown={};\n"
	"function paint(C){for(var l in C){var v=C[l],key=v.join('|');"
	"if(cshown[l]===key)continue;cshown[l]=key;\n"
	" var e=hook('data-owner-of',l),col=v[0]>=0?D.colours[v[0]]:null;\n"
	" if(e)e.setAttribute('stroke',col||'none');\n"
	" else if(D.kind==='graph'&&(e=hook('data-cell',l))){"
	"e.setAttribute('stroke',col||'#777777');"
	"e.setAttribute('stroke-width',col?4:1);}\n"
	" var n=hook('data-count',l);if(n&&v[1]!==null)n.textContent="
	"n.textContent.replace(/-?\\d+$/,v[1]);\n"
	" var f=hook('data-features',l);if(f){f.textContent=v[2];"
	"var w=f.getAttribute('textLength');if(w&&v[2].length*8*0.56<=+w){"
	"f.removeAttribute('textLength');f.removeAttribute('lengthAdjust');}}"
	"}}\n"
	"var title=svg.querySelector('[data-part=title]');\n"
	"function cell(l){if(!(l in cc)){var e=svg.querySelector("
	"'[data-cell=\"'+CSS.escape(l)+'\"]');if(!e){cc[l]=null;}else{"
	"var b=e.getBBox();cc[l]={x:b.x+b.width/2,y:b.y+b.height/2,"
	"r:Math.max(b.width,b.height)/2||1,e:e};}}"
	"return cc[l];}\n"
	"var K=1;if(D.kind==='table'){var tr=svg.querySelector("
	"'rect.table');if(tr&&D.tw>0)K=tr.width.baseVal.value/D.tw;}\n"
	"var byStart={};\n"
	"U.forEach(function(u,i){var g=svg.querySelector("
	"'g[data-unit=\"'+CSS.escape(u[0])+'\"]');marks[i]=g;\n"
	" var b={h:20,j:0,cx:0,cy:0,txt:null};\n"
	" if(g){var r=g.querySelector('rect');if(r)b.h=r.height.baseVal"
	".value;var f=g.querySelector('line.facing');if(f){b.cx=f.x1"
	".baseVal.value;b.cy=f.y1.baseVal.value;}\n"
	"  var ts=g.querySelectorAll('text');for(var k=ts.length-1;k>=0;k--)"
	"{if(/ -?\\d+$/.test(ts[k].textContent)){b.txt=ts[k];"
	"b.t0=ts[k].textContent;break;}}}\n"
	" if(D.kind!=='table'&&u[1]!==null){var s=byStart[u[1]]||0;"
	"b.j=s;byStart[u[1]]=s+1;}\n"
	" base[i]=b;});\n",
	"function start(){return U.map(function(u){return {at:u[1],"
	"st:0,str:u[2]};});}\n"
	"var shown=[],was=-1;\n"
	"function place(S){var n={};\n"
	" S.forEach(function(s,i){var g=marks[i],u=U[i],b=base[i];"
	"if(!g)return;var tf='',j=0;\n"
	"  if(D.kind!=='table'&&s.at!==null){j=n[s.at]||0;"
	"if(s.st===0)n[s.at]=j+1;}\n"
	"  var key=JSON.stringify([s.at,s.st,s.str,j]);"
	"if(shown[i]===key)return;shown[i]=key;\n"
	"  if(D.kind==='table'){var p=s.at,q=u[1];tf='translate('+"
	"(K*(p[0]-q[0]))+','+(-K*(p[1]-q[1]))+') rotate('+(p[2]-q[2])+','"
	"+b.cx+','+b.cy+')';g.setAttribute('data-at',p.join(','));}\n"
	"  else if(s.at!==null&&u[1]!==null){var a=cell(s.at),o=cell(u[1]);"
	"\n"
	"   if(a&&o)tf='translate('+(a.x-o.x)+','+(a.y-o.y+(j-b.j)*(b.h+1))"
	"+')';g.setAttribute('data-at',s.at);}\n"
	"  g.setAttribute('transform',tf);\n"
	"  g.setAttribute('data-state',['','eliminated','left_world'][s.st]);\n"
	"  g.setAttribute('data-strength',s.str);\n"
	"  if(b.txt)b.txt.textContent=b.t0.replace(/-?\\d+$/,s.str);});}\n"
	"var hl=document.createElementNS(NS,'g');hl.id='rp-hl';"
	"svg.appendChild(hl);\n"
	"function highlight(st){while(hl.firstChild)"
	"hl.removeChild(hl.firstChild);\n"
	" marks.forEach(function(g){if(g)g.classList.remove('cur');});\n"
	" if(!st)return;\n"
	" st.u.forEach(function(i){if(marks[i])marks[i].classList"
	".add('cur');});\n"
	/* A cell's outline drawn round it, its owner's left to be seen. */
	" var pts=[];st.c.forEach(function(l){var c=cell(l);if(!c)return;"
	"var e=c.e.cloneNode(false),k=(c.r+5)/c.r;"
	"e.removeAttribute('data-cell');"
	"e.removeAttribute('class');e.setAttribute('fill','none');"
	"e.setAttribute('stroke','#ff00aa');e.setAttribute('stroke-width',"
	"'3');e.setAttribute('transform','translate('+c.x+','+c.y+') scale('"
	"+k+') translate('+(-c.x)+','+(-c.y)+')');"
	"hl.appendChild(e);pts.push(c.x+','+c.y);});\n"
	" if(pts.length>1){var pl=document.createElementNS(NS,'polyline');"
	"pl.setAttribute('points',pts.join(' '));pl.setAttribute('fill',"
	"'none');pl.setAttribute('stroke','#ff00aa');pl.setAttribute("
	"'stroke-width','2');pl.setAttribute('stroke-opacity','0.7');"
	"pl.setAttribute('stroke-dasharray','6 3');"
	"hl.appendChild(pl);}}\n",
	"function text(id,s){document.getElementById(id).textContent=s;}\n"
	/* The current line scrolled into the trace's view, the trace only
	 * (scrollIntoView() would scroll the page too, and on a phone take
	 * the board off the screen at every step). */
	"var trace=document.getElementById('trace');\n"
	"function reveal(li){var r=li.getBoundingClientRect(),"
	"q=trace.getBoundingClientRect();if(r.top<q.top)trace.scrollTop-="
	"q.top-r.top;else if(r.bottom>q.bottom)trace.scrollTop+="
	"Math.min(r.bottom-q.bottom,r.top-q.top);}\n"
	/* A small picture drawn larger on a wide screen, up to 1.5 times,
	 * as large as the board's part of the window holds. */
	/* What a step highlights scrolled into the board's view when it is
	 * out of it (a large board, a phone). */
	"var bd=document.getElementById('board');\n"
	"function follow(){var r=null;\n"
	" [hl].concat([].slice.call(svg.querySelectorAll('g[data-unit].cur')))"
	".forEach(function(e){if(!e.firstChild)return;"
	"var b=e.getBoundingClientRect();if(!b.width&&!b.height)return;"
	"r=r?{l:Math.min(r.l,b.left),t:Math.min(r.t,b.top),"
	"r:Math.max(r.r,b.right),b:Math.max(r.b,b.bottom)}:"
	"{l:b.left,t:b.top,r:b.right,b:b.bottom};});\n"
	" if(!r)return;var q=bd.getBoundingClientRect();\n"
	" if(r.l<q.left||r.r>q.right)bd.scrollLeft+=(r.l+r.r-q.left-q.right)/2;"
	"\n if(r.t<q.top||r.b>q.bottom)bd.scrollTop+=(r.t+r.b-q.top-q.bottom)/2;"
	"}\n"
	"var W0=+svg.getAttribute('width'),H0=+svg.getAttribute('height');\n"
	"function fit(){var "
	"k=Math.min((bd.clientWidth-16)/W0,(window.innerHeight-"
	"bd.getBoundingClientRect().top-16)/H0,1.5);"
	"if(!(k>1)||window.innerWidth<=700)k=1;"
	"svg.style.width=Math.floor(W0*k)+'px';"
	"svg.style.height=Math.floor(H0*k)+'px';}\n"
	"if(W0>0&&H0>0){fit();window.addEventListener('resize',fit);}\n"
	"function show(k){k=Math.max(0,Math.min(N,k));cur=k;var S=start();"
	"\n for(var i=0;i<k;i++)D.steps[i].ch.forEach(function(c){"
	"S[c[0]]={at:c[1],st:c[2],str:c[3]};});\n"
	" place(S);var st=k>0?D.steps[k-1]:null;highlight(st);\n"
	" var C={};for(var l in CS)C[l]=CS[l];\n"
	" for(i=0;i<k;i++)D.steps[i].cc.forEach(function(c){"
	"C[c[0]]=c.slice(1);});\n"
	" if(k===N)D.cfix.forEach(function(c){C[c[0]]=c.slice(1);});\n"
	" paint(C);\n"
	" if(title)title.textContent=k===0?D.titles[0]:k===N?D.titles[2]:"
	"D.titles[1]+': step '+k+' of '+N;\n"
	" text('step',k===0?'start (step 0 of '+N+')':'step '+k+' of '+N);"
	"\n text('ev',st?st.e:'the board as the turn began');\n"
	" text('order',st?st.o:'');\n"
	" text('units',st?st.u.map(function(i){return U[i][0];})"
	".join(', '):'');\n"
	" text('cost',st?st.cost:'');text('ruling',st?st.r:'');\n"
	" if(was>=0&&lis[was])lis[was].classList.remove('cur');"
	"was=st!==null?st.l:-1;\n"
	" if(was>=0&&lis[was])lis[was].classList.add('cur');\n"
	" if(st&&st.l>=0&&lis[st.l])reveal(lis[st.l]);\n"
	" follow();\n"
	" document.getElementById('first').disabled=k===0;"
	"document.getElementById('prev').disabled=k===0;\n"
	" document.getElementById('next').disabled=k===N;"
	"document.getElementById('last').disabled=k===N;\n"
	" document.body.setAttribute('data-step',k);}\n"
	"document.getElementById('first').onclick=function(){show(0);};\n"
	"document.getElementById('prev').onclick=function(){show(cur-1);};"
	"\n"
	"document.getElementById('next').onclick=function(){show(cur+1);};"
	"\n"
	"document.getElementById('last').onclick=function(){show(N);};\n"
	/* A line goes to its step on a click, and on Enter when it has
	 * the focus (each line is in the Tab order). */
	"for(var i=0;i<lis.length;i++)(function(i){function go(){"
	"for(var k=0;k<N;k++)if(D.steps[k].l===i)show(k+1);}\n"
	" lis[i].tabIndex=0;lis[i].onclick=go;"
	"lis[i].addEventListener('keydown',function(ev){if(ev.key!=='Enter'"
	"||ev.altKey||ev.ctrlKey||ev.metaKey||ev.shiftKey)return;"
	"ev.preventDefault();go();});})(i);\n"
	"document.addEventListener('keydown',function(ev){var m={Home:0,"
	"End:N,ArrowLeft:cur-1,ArrowRight:cur+1};if(ev.altKey||ev.ctrlKey||"
	"ev.metaKey||!(ev.key in m))return;ev.preventDefault();"
	"show(m[ev.key]);});\n"
	"show(0);\n"
	"})();\n",
	NULL
};

/* Text for HTML: the specials escaped. */
static void
html(FILE *fp, const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n && s[i] != '\0'; i++)
		switch (s[i]) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			fputc(s[i], fp);
		}
}

/* A JSON string inside a <script>: "<", ">" and "&" as \u escapes, so
 * that no text closes the element (jstr_in(): without the quotes). */
static void
jstr_in(FILE *fp, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < ' ' || *p == 127 || *p == '<' || *p == '>' ||
		    *p == '&')
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
}

static void
jstr(FILE *fp, const char *s)
{
	fputc('"', fp);
	jstr_in(fp, s);
	fputc('"', fp);
}

static void
jcell(struct arb_turn *t, FILE *fp, int c)
{
	char	 buf[32];

	if (c < 0)
		fputs("null", fp);
	else
		jstr(fp, board_label(&t->board, c, buf));
}

static void
jpose(FILE *fp, const struct pose *ps)
{
	fprintf(fp, "[%.3f,%.3f,%.3f]", geom_round(ps->x), geom_round(ps->y),
	    geom_round(ps->facing));
}

/* The field key of event te, or NULL. */
static const struct tfield *
field(const struct tevent *te, const char *key, enum tftype type)
{
	int	 i;

	for (i = 1; i < te->nf; i++)
		if (strcmp(te->f[i].key, key) == 0 && te->f[i].type == type)
			return &te->f[i];
	return NULL;
}

/* The order an event names ("order" and "player"), or -1; *hint is
 * where the last one was found, since an order's events come together. */
static int
event_order(struct arb_turn *t, const struct tevent *te, size_t *hint)
{
	const struct tfield *id = field(te, "order", TF_STR);
	const struct tfield *pl = field(te, "player", TF_STR);
	size_t		 n = t->orders.n, i, k;

	if (id == NULL || pl == NULL || n == 0)
		return -1;
	for (k = 0; k < n; k++) {
		const struct order *o;

		i = (*hint + k) % n;
		o = &t->orders.v[i];
		if (strcmp(o->id, id->s) == 0 &&
		    strcmp(t->players.v[o->player].name, pl->s) == 0) {
			*hint = i;
			return (int)i;
		}
	}
	return -1;
}

static int
unit_named(struct arb_turn *t, const struct tevent *te, const char *key)
{
	const struct tfield *f = field(te, key, TF_STR);

	return f != NULL ? strmap_get(&t->unit_ids, f->s) : -1;
}

static bool
same(const struct arb_turn *t, const struct ustate *a,
    const struct ustate *b)
{
	if (a->st != b->st || a->str != b->str)
		return false;
	if (t->board.kind == BOARD_TABLE)
		return geom_round(a->pose.x) == geom_round(b->pose.x) &&
		    geom_round(a->pose.y) == geom_round(b->pose.y) &&
		    geom_round(a->pose.facing) == geom_round(b->pose.facing);
	return a->at == b->at;
}

static void
change(struct arb_turn *t, FILE *fp, int u, const struct ustate *s,
    bool *first)
{
	fprintf(fp, "%s[%d,", *first ? "" : ",", u);
	*first = false;
	if (t->board.kind == BOARD_TABLE)
		jpose(fp, &s->pose);
	else
		jcell(t, fp, s->at);
	fprintf(fp, ",%d,%d]", s->st, s->str);
}

static bool
csame(const struct cstate *a, const struct cstate *b)
{
	return a->owner == b->owner && a->count == b->count &&
	    a->feat == b->feat;
}

static void
cdirty(struct cells *cs, int c)
{
	if (c < 0 || cs->isdirty[c])
		return;
	cs->isdirty[c] = true;
	cs->dirty[cs->ndirty++] = c;
}

/* A cell's state as JSON: [LABEL, owner, count or null, "features"]
 * (the features named as the picture names them, svg.c). */
static void
cjson(struct arb_turn *t, FILE *fp, int c, const struct cstate *s,
    bool counts)
{
	const struct board *b = &t->board;
	int		 f, n = 0;

	fputc('[', fp);
	jcell(t, fp, c);
	fprintf(fp, ",%d,", s->owner);
	if (counts)
		fprintf(fp, "%d", s->count);
	else
		fputs("null", fp);
	fputs(",\"", fp);
	for (f = 0; f < b->nfeatures; f++)
		if (s->feat >> f & 1) {
			if (n++ > 0)
				fputc(' ', fp);
			jstr_in(fp, b->features[f]);
		}
	fputs("\"]", fp);
}

/* The cells changed since the last step written, as its "cc". */
static void
cflush(struct arb_turn *t, FILE *fp, struct cells *cs)
{
	size_t		 i;
	int		 c, n = 0;

	for (i = 0; i < cs->ndirty; i++) {
		c = cs->dirty[i];
		cs->isdirty[c] = false;
		if (csame(&cs->now[c], &cs->shown[c]))
			continue;
		fputs(n++ > 0 ? "," : "", fp);
		cjson(t, fp, c, &cs->now[c], cs->counts);
		cs->shown[c] = cs->now[c];
		cs->touched[c] = true;
	}
	cs->ndirty = 0;
}

static int
player_named(const struct arb_turn *t, const struct tfield *f)
{
	size_t	 i;

	if (f == NULL || f->type != TF_STR)
		return -1;
	for (i = 0; i < t->players.n; i++)
		if (strcmp(t->players.v[i].name, f->s) == 0)
			return (int)i;
	return -1;
}

/*
 * What event te (of order o, or -1) does to the cells: an "owner" gives
 * its cell its "to" (and one "neutralized" empties its counter); a
 * "destroyed" takes a feature; and where cells carry
 * a counter (territory's armies), an "arrive" brings its armies into its
 * "to", a "raise" its armies into its cell, a garrison's "loss" (no
 * order) leaves its "left", a loss of armies that arrived in the cell
 * they defend ("at" the "target") takes them from it, and a step
 * ("step" with "moves") takes from their cells the armies of every order
 * that moves in it (territory 2 and ruling T2: the movers leave first;
 * the trace does not name them).  With shown false (an event a
 * player's page does not show), only that last, for the orders the page
 * does show (ruling[o] >= 0).
 */
static void
cevent(struct arb_turn *t, struct cells *cs, const struct tevent *te,
    int o, const int *ruling, bool shown)
{
	const char	*ev = te->f[0].s;
	const struct tfield *f, *n, *c;
	size_t		 i;
	int		 k, s;

	if (cs->counts && strcmp(ev, "step") == 0 &&
	    field(te, "order", TF_STR) == NULL &&
	    (f = field(te, "step", TF_INT)) != NULL &&
	    field(te, "moves", TF_INT) != NULL) {
		s = (int)f->i;
		for (i = 0; i < t->orders.n; i++) {
			const struct order *od = &t->orders.v[i];

			if (ruling[i] < 0 || od->status != OS_DONE ||
			    od->ncells <= s || s < 1 || cs->pk[i] <= 0)
				continue;
			k = od->cells[s - 1];
			cs->now[k].count -= (int)cs->pk[i];
			cdirty(cs, k);
		}
		return;
	}
	if (!shown)
		return;
	if (strcmp(ev, "owner") == 0 &&
	    (c = field(te, "cell", TF_CELL)) != NULL && c->i >= 0) {
		cs->now[c->i].owner = player_named(t, field(te, "to",
		    TF_STR));
		/* Territory falls neutral when its defenders are gone
		 * (territory.c, invade()): whatever armies a player's
		 * page still shows there (the defender's hidden moves
		 * out of it) are not there. */
		if (cs->counts && (f = field(te, "why", TF_STR)) != NULL &&
		    strcmp(f->s, "neutralized") == 0)
			cs->now[c->i].count = 0;
		cdirty(cs, (int)c->i);
	} else if (strcmp(ev, "destroyed") == 0 &&
	    (c = field(te, "cell", TF_CELL)) != NULL && c->i >= 0 &&
	    (f = field(te, "feature", TF_STR)) != NULL &&
	    (k = board_feature_find(&t->board, f->s)) >= 0) {
		cs->now[c->i].feat &= ~(1u << k);
		cdirty(cs, (int)c->i);
	}
	if (!cs->counts)
		return;
	n = field(te, "armies", TF_INT);
	if (strcmp(ev, "arrive") == 0 && n != NULL &&
	    (c = field(te, "to", TF_CELL)) != NULL && c->i >= 0) {
		cs->now[c->i].count += (int)n->i;
		cdirty(cs, (int)c->i);
		if (o >= 0)
			cs->pk[o] = n->i;
	} else if (strcmp(ev, "raise") == 0 && n != NULL &&
	    (c = field(te, "cell", TF_CELL)) != NULL && c->i >= 0) {
		cs->now[c->i].count += (int)n->i;
		cdirty(cs, (int)c->i);
	} else if (strcmp(ev, "loss") == 0 && n != NULL &&
	    field(te, "unit", TF_STR) == NULL &&
	    (c = field(te, "at", TF_CELL)) != NULL && c->i >= 0 &&
	    (f = field(te, "left", TF_INT)) != NULL) {
		const struct tfield *tg = field(te, "target", TF_CELL);

		if (o < 0)
			cs->now[c->i].count = (int)f->i;
		else {
			cs->pk[o] = f->i;
			if (tg != NULL && tg->i == c->i)
				cs->now[c->i].count -= (int)n->i;
		}
		cdirty(cs, (int)c->i);
	}
}

/* A unit moved by order o: where it stood before the order is kept, for
 * an order that is then ruled out (below). */
static void
moved_by(struct ustate *s, int o)
{
	if (o < 0 || s->ord == o)
		return;
	s->ord = o;
	s->pat = s->at;
	s->ppose = s->pose;
}

/*
 * What event te (of order o, or -1) does to the units' marks: mv[0 ..
 * nm-1] move to its "to" cell or take its pose; a "loss" sets its unit's
 * strength (eliminated at 0); a charge not held puts the charger in its
 * target's cell; leaving the world (xconq's leave_world) takes the unit
 * off where it stood; a slide (arcane-legions) whose end the trace does
 * not give sets the unit's pose at the turn's end when nothing moves it
 * after (last[u]: the last event that moves unit u).  An order ruled
 * failed or illegal puts the units it moved back where they stood before
 * it (aeonis walks a path and pays for it whole, or not at all).  The
 * changes are written to fp.
 */
static void
moves(struct arb_turn *t, FILE *fp, const struct tevent *te, int o,
    const int *mv, int nm, struct ustate *us, const size_t *last,
    bool *first)
{
	const struct tfield *f, *to, *x, *y, *fa, *made, *held;
	const char	*ev = te->f[0].s;
	size_t		 ti = (size_t)(te - t->trace.v), i;
	int		 k, u;
	struct ustate	 was;

	to = field(te, "to", TF_CELL);
	x = field(te, "x", TF_REAL);
	y = field(te, "y", TF_REAL);
	fa = field(te, "facing", TF_REAL);
	made = field(te, "made", TF_BOOL);
	for (k = 0; k < nm; k++) {
		struct ustate	*s = &us[mv[k]];
		const struct unit *un = &t->units.v[mv[k]];

		was = *s;
		if (t->board.kind == BOARD_TABLE) {
			if (x != NULL && y != NULL && fa != NULL &&
			    (made == NULL || made->i != 0)) {
				moved_by(s, o);
				s->pose.x = x->d;
				s->pose.y = y->d;
				s->pose.facing = fa->d;
			} else if (strcmp(ev, "slide") == 0 && made != NULL &&
			    made->i != 0 && last[mv[k]] == ti) {
				moved_by(s, o);
				s->pose = un->pose;
			}
		} else if (strcmp(ev, "action") == 0 &&
		    (f = field(te, "kind", TF_STR)) != NULL &&
		    strcmp(f->s, "leave_world") == 0 && un->left)
			s->st = 2;
		else if (to != NULL && to->i >= 0 && strcmp(ev, "route") != 0 &&
		    strcmp(ev, "part") != 0) {
			moved_by(s, o);
			s->at = (int)to->i;
		}
		if (strcmp(ev, "loss") == 0 &&
		    (f = field(te, "left", TF_INT)) != NULL) {
			s->str = (int)f->i;
			if (f->i <= 0)
				s->st = 1;
		}
		if (!same(t, &was, s))
			change(t, fp, mv[k], s, first);
	}
	/* A charge not held: the charger takes the target's place. */
	if (strcmp(ev, "charge") == 0 &&
	    (held = field(te, "held", TF_BOOL)) != NULL && held->i == 0 &&
	    (u = unit_named(t, te, "charger")) >= 0 &&
	    (f = field(te, "at", TF_CELL)) != NULL && f->i >= 0) {
		was = us[u];
		moved_by(&us[u], o);
		us[u].at = (int)f->i;
		if (!same(t, &was, &us[u]))
			change(t, fp, u, &us[u], first);
	}
	/* An order ruled out: its units back where they stood, when that is
	 * where the turn leaves them (a rule system may keep a failed
	 * order's moves up to where it failed). */
	if (strcmp(ev, "ruling") == 0 && o >= 0 &&
	    (f = field(te, "status", TF_STR)) != NULL &&
	    (strcmp(f->s, "failed") == 0 || strcmp(f->s, "illegal") == 0))
		for (i = 0; i < t->units.n; i++) {
			const struct unit *un = &t->units.v[i];

			if (us[i].ord != o || (t->board.kind == BOARD_TABLE ?
			    geom_round(un->pose.x) != geom_round(us[i].ppose.x) ||
			    geom_round(un->pose.y) != geom_round(us[i].ppose.y) ||
			    geom_round(un->pose.facing) !=
			    geom_round(us[i].ppose.facing) :
			    (un->at >= 0 ? un->at : un->from) != us[i].pat))
				continue;
			was = us[i];
			us[i].at = us[i].pat;
			us[i].pose = us[i].ppose;
			us[i].ord = -1;
			if (!same(t, &was, &us[i]))
				change(t, fp, (int)i, &us[i], first);
		}
}

/* The units and cells event te is about, what it does to the cells
 * (cs), and its moves applied to us (the changes written to fp, the step
 * left open after them: *first whether none was). */
static void
step_json(struct arb_turn *t, FILE *fp, const struct tevent *te, int line,
    struct ustate *us, struct cells *cs, const int *ruling,
    const size_t *last, size_t *hint, bool *first)
{
	const struct tfield *f;
	int		 o, u, movers[2], nm = 0, i, k, n = 0;
	const int	*mv;
	char		 buf[32];

	o = event_order(t, te, hint);
	if ((u = unit_named(t, te, "unit")) >= 0) {
		movers[nm++] = u;
		mv = movers;
	} else if (o >= 0) {
		mv = t->orders.v[o].units;
		nm = t->orders.v[o].nunits;
	} else
		mv = movers;
	fputs("{\"e\":", fp);
	jstr(fp, te->f[0].s);
	fprintf(fp, ",\"l\":%d,\"u\":[", line);
	for (i = 0; i < nm; i++)
		fprintf(fp, "%s%d", i > 0 ? "," : "", mv[i]);
	/* The units it names besides: a charge's charger and target. */
	if ((u = unit_named(t, te, "charger")) >= 0 && (nm == 0 ||
	    u != mv[0]))
		fprintf(fp, "%s%d", nm + n++ > 0 ? "," : "", u);
	if ((u = unit_named(t, te, "target")) >= 0)
		fprintf(fp, "%s%d", nm + n++ > 0 ? "," : "", u);
	fputs("],\"c\":[", fp);
	for (i = 1, n = 0; i < te->nf; i++) {
		if (te->f[i].type != TF_CELL || te->f[i].i < 0)
			continue;
		for (k = 1; k < i; k++)
			if (te->f[k].type == TF_CELL && te->f[k].i == te->f[i].i)
				break;
		if (k < i)
			continue;
		fprintf(fp, "%s", n++ > 0 ? "," : "");
		jstr(fp, board_label(&t->board, (int)te->f[i].i, buf));
	}
	fputs("],\"cost\":", fp);
	if ((f = field(te, "cost", TF_INT)) != NULL) {
		const struct tfield *tot = field(te, "total", TF_INT);

		jstr(fp, tot != NULL ? t_printf(t, "%ld (%ld in all)", f->i,
		    tot->i) : t_printf(t, "%ld", f->i));
	} else
		jstr(fp, "");
	/* Its order: "ID (PLAYER)". */
	fputs(",\"o\":", fp);
	if ((f = field(te, "order", TF_STR)) != NULL &&
	    field(te, "player", TF_STR) != NULL)
		jstr(fp, t_printf(t, "%s (%s)", f->s,
		    field(te, "player", TF_STR)->s));
	else
		jstr(fp, "");
	fputs(",\"r\":", fp);
	if (o >= 0 && ruling[o] >= 0) {
		const struct tevent *re = &t->trace.v[ruling[o]];
		const struct tfield *s = field(re, "status", TF_STR);
		const struct tfield *m = field(re, "message", TF_STR);

		jstr(fp, t_printf(t, "%s: %s", s != NULL ? s->s : "?",
		    m != NULL ? m->s : ""));
	} else
		jstr(fp, "");
	/* The cells, with what the events before it that the page does
	 * not show did to them, then the moves. */
	cevent(t, cs, te, o, ruling, true);
	fputs(",\"cc\":[", fp);
	cflush(t, fp, cs);
	fputs("],\"ch\":[", fp);
	moves(t, fp, te, o, mv, nm, us, last, first);
}

/* The trace's text (as emit_trace() writes it for t->trace_for) into
 * the turn's arena: lines, *n of them. */
static char **
trace_lines(struct arb_turn *t, size_t *n)
{
	char	**lines, *p, *text;
	size_t	 k;

	t->vbuf = NULL;
	t->vlen = 0;
	if ((t->vmem = open_memstream(&t->vbuf, &t->vlen)) == NULL)
		t_nomem(t);
	emit_trace(t, 1, t->vmem);
	if (fclose(t->vmem) != 0 || t->vbuf == NULL) {
		t->vmem = NULL;
		t_nomem(t);
	}
	t->vmem = NULL;
	text = t_alloc(t, t->vlen + 1);
	memcpy(text, t->vbuf, t->vlen);
	text[t->vlen] = '\0';
	view_drop(t);
	for (*n = 0, p = text; *p != '\0'; p++)
		*n += *p == '\n';
	lines = t_alloc(t, (*n + 1) * sizeof(*lines));
	for (k = 0, p = text; k < *n; k++) {
		lines[k] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
	}
	return lines;
}

/* The picture of the board as the turn began, without the XML
 * declaration (the page is HTML), into the turn's arena. */
static char *
start_svg(struct arb_turn *t, int player)
{
	char	*svg, *s;

	t->vbuf = NULL;
	t->vlen = 0;
	if ((t->vmem = open_memstream(&t->vbuf, &t->vlen)) == NULL)
		t_nomem(t);
	emit_svg(t, SVG_START | SVG_HOOKS, player, t->vmem);
	if (fclose(t->vmem) != 0 || t->vbuf == NULL) {
		t->vmem = NULL;
		t_nomem(t);
	}
	t->vmem = NULL;
	svg = t_alloc(t, t->vlen + 1);
	memcpy(svg, t->vbuf, t->vlen);
	svg[t->vlen] = '\0';
	view_drop(t);
	return (s = strstr(svg, "<svg")) != NULL ? s : svg;
}

void
emit_replay(struct arb_turn *t, int player, FILE *fp)
{
	const struct board *b = &t->board;
	struct ustate	*us, fin;
	struct cells	 cs;
	struct cstate	 cfin;
	char		**lines, *svg;
	const char	*title, **colours;
	char		 t0[256], t1[256];
	size_t		 nlines, i, hint = 0, line, n;
	int		*ruling, o, nsteps, nfix, c;
	size_t		*last;
	bool		 first;

	if (player < -1 || player >= (int)t->players.n)
		mem_fail(&t->mem, ARB_EINTERNAL, "no player %d", player);
	svg = start_svg(t, player);
	colours = svg_colours(t);
	t->trace_for = player + 1;
	lines = trace_lines(t, &nlines);
	/* Each order's ruling, from the event the page shows. */
	ruling = t_alloc(t, (t->orders.n + 1) * sizeof(*ruling));
	for (i = 0; i < t->orders.n; i++)
		ruling[i] = -1;
	for (i = 0; i < t->trace.n; i++)
		if (strcmp(t->trace.v[i].f[0].s, "ruling") == 0 &&
		    view_event(t, &t->trace.v[i]) &&
		    (o = event_order(t, &t->trace.v[i], &hint)) >= 0)
			ruling[o] = (int)i;
	us = t_alloc(t, (t->units.n + 1) * sizeof(*us));
	for (i = 0; i < t->units.n; i++) {
		const struct unit *u = &t->units.v[i];

		us[i].at = u->from >= 0 ? u->from : u->at;
		us[i].pose = u->pose0;
		us[i].st = 0;
		us[i].str = u->strength0;
		us[i].ord = -1;
	}
	/* The cells as the turn began. */
	n = (size_t)b->ncells + 1;
	cs.now = t_alloc(t, n * sizeof(*cs.now));
	cs.shown = t_alloc(t, n * sizeof(*cs.shown));
	cs.dirty = t_alloc(t, n * sizeof(*cs.dirty));
	cs.isdirty = t_alloc(t, n * sizeof(*cs.isdirty));
	cs.touched = t_alloc(t, n * sizeof(*cs.touched));
	cs.pk = t_alloc(t, (t->orders.n + 1) * sizeof(*cs.pk));
	cs.ndirty = 0;
	cs.counts = b->cx[0] != NULL && b->cx0[0] != NULL &&
	    t->rs->cell_x != NULL && t->rs->cell_x[0].name != NULL;
	for (c = 0; c < b->ncells; c++) {
		cs.now[c].owner = b->owner0 != NULL ? b->owner0[c] :
		    b->cells[c].owner;
		cs.now[c].count = cs.counts ? b->cx0[0][c] : 0;
		cs.now[c].feat = b->features0 != NULL ? b->features0[c] :
		    b->cells[c].features;
		cs.shown[c] = cs.now[c];
		cs.isdirty[c] = cs.touched[c] = false;
	}
	for (i = 0; i < t->orders.n; i++)
		cs.pk[i] = t->orders.v[i].n;
	/* The last event that moves each unit (a slide's end, above). */
	last = t_alloc(t, (t->units.n + 1) * sizeof(*last));
	for (i = 0; i < t->units.n; i++)
		last[i] = (size_t)-1;
	for (i = 0; i < t->trace.n; i++) {
		const struct tevent *te = &t->trace.v[i];
		int		 u;

		if ((u = unit_named(t, te, "unit")) >= 0 &&
		    (field(te, "x", TF_REAL) != NULL ||
		    strcmp(te->f[0].s, "slide") == 0))
			last[u] = i;
	}
	title = t_printf(t, "%s, turn %d%s%s", t->rs->name, t->number,
	    player >= 0 ? ": as " : "", player >= 0 ?
	    t->players.v[player].name : "");

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width\">\n"
	    "<meta name=\"generator\" content=\"arbiter " ARB_VERSION "\">\n"
	    "<title>The replay of ", fp);
	html(fp, title, strlen(title));
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<header>\n<h1>", replay_css);
	html(fp, title, strlen(title));
	fputs("</h1>\n<button id=\"first\" title=\"first (Home)\">"
	    "&#xAB; first</button>\n"
	    "<button id=\"prev\" title=\"previous (Left)\">&#x25C0; "
	    "previous</button>\n"
	    "<button id=\"next\" title=\"next (Right)\">next &#x25B6;"
	    "</button>\n"
	    "<button id=\"last\" title=\"last (End)\">last &#xBB;"
	    "</button>\n<span id=\"step\" aria-live=\"polite\"></span>\n"
	    "</header>\n<main>\n<div id=\"board\">\n", fp);
	fputs(svg, fp);
	fputs("</div>\n<div id=\"side\">\n<div id=\"info\">"
	    "<div><b>event</b> <span id=\"ev\"></span></div>"
	    "<div><b>order</b> <span id=\"order\"></span></div>"
	    "<div><b>units</b> <span id=\"units\"></span></div>"
	    "<div><b>cost</b> <span id=\"cost\"></span></div>"
	    "<div><b>ruling</b> <span id=\"ruling\"></span></div></div>\n"
	    "<ol id=\"trace\" start=\"1\">\n", fp);
	for (line = 0; line < nlines; line++) {
		fputs("<li>", fp);
		html(fp, lines[line], strlen(lines[line]));
		fputs("</li>\n", fp);
	}
	fputs("</ol>\n</div>\n</main>\n"
	    "<script type=\"application/json\" id=\"replay-data\">\n", fp);
	fprintf(fp, "{\"kind\":\"%s\",\"tw\":%.3f,\"units\":[",
	    b->kind == BOARD_HEX ? "hex" : b->kind == BOARD_GRAPH ? "graph" :
	    "table", b->kind == BOARD_TABLE ? geom_round(b->tw) : 0.0);
	for (i = 0; i < t->units.n; i++) {
		fputs(i > 0 ? ",\n[" : "\n[", fp);
		jstr(fp, t->units.v[i].id);
		fputc(',', fp);
		if (b->kind == BOARD_TABLE)
			jpose(fp, &us[i].pose);
		else
			jcell(t, fp, us[i].at);
		fprintf(fp, ",%d]", us[i].str);
	}
	fputs("],\n\"steps\":[", fp);
	/* One step an event the page shows, each its line. */
	hint = 0;
	first = true;
	for (i = 0, line = 0, nsteps = 0; i < t->trace.n; i++) {
		if (!view_event(t, &t->trace.v[i])) {
			cevent(t, &cs, &t->trace.v[i], event_order(t,
			    &t->trace.v[i], &hint), ruling, false);
			continue;
		}
		if (nsteps++ > 0)
			fputs("]},\n", fp);
		first = true;
		step_json(t, fp, &t->trace.v[i], (int)line++, us, &cs, ruling,
		    last, &hint, &first);
	}
	t->trace_for = 0;
	/* What the steps did not show is set at the last one (a step of
	 * its own when there is none): every unit as the result says. */
	if (nsteps == 0)
		fputs("\n{\"e\":\"the turn's end\",\"l\":-1,\"u\":[],"
		    "\"c\":[],\"cost\":\"\",\"o\":\"\",\"r\":\"\",\"cc\":[],"
		    "\"ch\":[",
		    fp);
	nfix = 0;
	for (i = 0; i < t->units.n; i++) {
		const struct unit *u = &t->units.v[i];

		fin.at = u->at >= 0 ? u->at : u->from;
		fin.pose = u->pose;
		fin.st = u->gone ? 1 : u->left ? 2 : 0;
		fin.str = u->strength;
		if (!same(t, &us[i], &fin)) {
			change(t, fp, (int)i, &fin, &first);
			nfix++;
		}
	}
	/* How many units the last step set that the steps had not (for a
	 * reader, and the tests). */
	fprintf(fp, "]}],\n\"fixed\":%d,\n", nfix);
	/* The cells likewise: what the steps did not show, set at the
	 * last (cfix, and how many: cfixed). */
	fputs("\"cfix\":[", fp);
	nfix = 0;
	for (c = 0; c < b->ncells; c++) {
		cfin.owner = b->cells[c].owner;
		cfin.count = cs.counts ? b->cx[0][c] : 0;
		cfin.feat = b->cells[c].features;
		if (csame(&cs.shown[c], &cfin))
			continue;
		fputs(nfix++ > 0 ? "," : "", fp);
		cjson(t, fp, c, &cfin, cs.counts);
		cs.touched[c] = true;
	}
	fprintf(fp, "],\n\"cfixed\":%d,\n", nfix);
	/* The start of every cell a step changes; the players' colours;
	 * the picture's title at the start, during the turn and at the
	 * last step (the result's picture's). */
	fputs("\"cells\":[", fp);
	for (c = 0, n = 0; c < b->ncells; c++)
		if (cs.touched[c]) {
			struct cstate	 s0;

			s0.owner = b->owner0 != NULL ? b->owner0[c] :
			    b->cells[c].owner;
			s0.count = cs.counts ? b->cx0[0][c] : 0;
			s0.feat = b->features0 != NULL ? b->features0[c] :
			    b->cells[c].features;
			fputs(n++ > 0 ? ",\n" : "\n", fp);
			cjson(t, fp, c, &s0, cs.counts);
		}
	fputs("],\n\"colours\":[", fp);
	for (i = 0; i < t->players.n; i++) {
		fputs(i > 0 ? "," : "", fp);
		jstr(fp, colours[i]);
	}
	svg_title(t, SVG_START, player, t0, sizeof(t0));
	svg_title(t, 0, player, t1, sizeof(t1));
	fputs("],\n\"titles\":[", fp);
	jstr(fp, t0);
	fputc(',', fp);
	jstr(fp, t_printf(t, "%s, turn %d", t->rs->name, t->number));
	fputc(',', fp);
	jstr(fp, t1);
	fputs("]}\n</script>\n<script>\n", fp);
	for (i = 0; replay_js[i] != NULL; i++)
		fputs(replay_js[i], fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno);
}
