// The widget manager of the book's live pages (book/_static/live/live.js), bundled by
// tools/build_site.py with esbuild into book/_static/vendor/live-widgets.js.
//
// It is @jupyter-widgets/html-manager's HTMLManager without what these pages never use:
// the ipywidgets 7 models (a second copy of base and controls), the Output widget and
// JupyterLab's rendermime (with its Markdown, LaTeX and JSON renderers), RequireJS.
// The page's Python is ipywidgets 8 only (requirements-lock.txt), and its widgets are
// the controls' (book/_static/live/live.js refuses any other module in French).
import * as base from "@jupyter-widgets/base";
import * as controls from "@jupyter-widgets/controls";
import { ManagerBase } from "@jupyter-widgets/base-manager";
import { MessageLoop } from "@lumino/messaging";
import { Widget } from "@lumino/widgets";
// Lumino's rules (a collapsed accordion's panel is hidden by them), the controls'
// stylesheet with JupyterLab's variables (html-manager adds them where a page has none,
// as the book's pages), and the icons the buttons name (« play », « undo »): the
// stylesheets html-manager injects, as one file (live-widgets.css).
import "@lumino/widgets/style/index.css";
import "@jupyter-widgets/controls/css/widgets.css";
import "@fortawesome/fontawesome-free/css/all.min.css";
import "@fortawesome/fontawesome-free/css/v4-shims.min.css";

const MODULES = {
  "@jupyter-widgets/base": base,
  "@jupyter-widgets/controls": controls,
};

export class LiveManager extends ManagerBase {
  constructor(options) {
    super();
    this.createComm = options.createComm;
    this.unknown = options.unknown;
    this.views = new Set();
    window.addEventListener("resize", () => {
      this.views.forEach((view) => {
        MessageLoop.postMessage(view.luminoWidget, Widget.ResizeMessage.UnknownSize);
      });
    });
  }

  async display_view(view, el) {
    const shown = await view;
    Widget.attach(shown.luminoWidget, el);
    this.views.add(shown);
    shown.once("remove", () => this.views.delete(shown));
  }

  _get_comm_info() {
    return Promise.resolve({});
  }

  _create_comm(target, modelId) {
    return Promise.resolve(this.createComm(target, modelId));
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    if (module === undefined || module[className] === undefined) {
      throw new Error(this.unknown(moduleName, moduleVersion, className));
    }
    return module[className];
  }
}
