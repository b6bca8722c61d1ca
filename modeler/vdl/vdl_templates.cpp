// vdl_templates.cpp — recursive instantiation with a renaming context.
#include "vdl_templates.hpp"

#include <map>
#include <set>

namespace railsym {
namespace vdl {

namespace {

struct TooBig {};
struct TooDeep {};   // an expression grew past kMaxExprDepth (reported)

struct Ctx {
    std::string prefix;                    // "front." ("" at the top level)
    std::map<std::string, ExprP> args;     // template parameter -> argument
    const std::set<std::string> *locals = nullptr;
    InstanceP trace;   // the instance being expanded (null at the top level)
};

class Expander {
public:
    Expander(Diagnostics &d, size_t max) : d_(d), max_(max) {}

    std::vector<StmtP> run(const Program &prog) {
        for (const auto &s : prog.stmts) {
            if (s->kind != Stmt::Template) continue;
            const std::string &n = s->decls[0].name;
            auto it = templates_.find(n);
            if (it != templates_.end()) {
                d_.error(s->decls[0].loc, "template '" + n + "' is defined twice");
                d_.note(it->second->decls[0].loc, "first definition of '" + n + "'");
                continue;
            }
            templates_[n] = s;
            check_template(*s);
        }
        Ctx top;
        try {
            for (const auto &s : prog.stmts) {
                if (s->kind == Stmt::Template) continue;
                if (s->kind == Stmt::Use)
                    instantiate(*s, top);
                else
                    emit(s);
            }
        } catch (const TooBig &) {
        }
        return std::move(out_);
    }

private:
    Diagnostics &d_;
    size_t max_;
    std::map<std::string, StmtP> templates_;
    std::map<std::string, std::set<std::string>> locals_;   // template -> names declared in its body
    std::map<std::string, Loc> instances_;                  // full instance name -> where
    std::vector<std::string> stack_;                        // templates being expanded
    std::vector<StmtP> out_;
    size_t expanded_ = 0;   // statements and instances produced by templates

    // Counts one statement or instance a template produces; past the budget
    // the expansion stops with one error at the outermost `use` (the line
    // the user can change).  Statements written at the top level cost
    // nothing: their number is bounded by the files' size.
    void count_expanded(const InstanceP &in) {
        if (++expanded_ <= max_) return;
        const InstanceRef *top = in.get();
        while (top->outer) top = top->outer.get();
        d_.error(top->use_loc, "the templates used here expand to more than " + std::to_string(max_) +
                                   " statements and instances (the limit); a template used several times "
                                   "inside another multiplies: check the 'use' lines of the templates involved");
        throw TooBig();
    }

    void emit(StmtP s) { out_.push_back(std::move(s)); }

    // rewrite(), with the depth of the result checked: a parameter replaced
    // by a deep argument deepens the expression (and nested instances can
    // do so again), so the parser's limit is enforced here too.
    // `in` is the instance the expression is expanded for (c's, or for an
    // argument the instance it is passed to).
    ExprP rewrite_checked(const ExprP &e, const Ctx &c, const InstanceP &in) {
        ExprP r = rewrite(e, c);
        if (r && r->depth > kMaxExprDepth) {
            const Expr *first = e.get();   // the expression's first character
            while (!first->args.empty() && first->kind != Expr::Call && first->kind != Expr::List &&
                   first->kind != Expr::Neg)
                first = first->args[0].get();
            d_.error(first->loc, "with the arguments of instance '" + in->instance + "' this expression is nested more than " +
                                 std::to_string(kMaxExprDepth) + " levels deep (the limit); pass simpler arguments "
                                 "(names of parameters or points defined outside)");
            for (const InstanceRef *it = in.get(); it; it = it->outer.get())
                d_.note(it->use_loc, "in instance '" + it->instance + "' of template '" + it->templ + "'");
            throw TooDeep();
        }
        return r;
    }

    void check_template(const Stmt &t) {
        std::set<std::string> &loc = locals_[t.decls[0].name];
        for (const auto &s : t.body)
            for (const auto &dc : s->decls)
                if (!dc.name.empty()) loc.insert(dc.name);
        for (const auto &p : t.params)
            if (loc.count(p.name)) {
                d_.error(p.loc, "parameter '" + p.name + "' of template '" + t.decls[0].name +
                                    "' is also declared inside it; rename one of them");
            }
    }

    ExprP rewrite(const ExprP &e, const Ctx &c) {
        if (!e) return e;
        if (e->kind == Expr::Name) {
            const std::string &n = e->text;
            size_t dot = n.find('.');
            std::string head = n.substr(0, dot);
            std::string rest = dot == std::string::npos ? "" : n.substr(dot);
            auto a = c.args.find(head);
            if (a != c.args.end()) {
                if (rest.empty()) return a->second;
                if (a->second->kind != Expr::Name) {
                    d_.error(e->loc, "'" + n + "': parameter '" + head +
                                         "' is not a name here (its argument is '" + expr_str(*a->second) +
                                         "'), so '" + rest.substr(1) + "' cannot be looked up in it");
                    return e;
                }
                return make_expr(Expr::Name, e->loc, a->second->text + rest);
            }
            if (c.locals && c.locals->count(head)) return make_expr(Expr::Name, e->loc, c.prefix + n);
            return e;
        }
        if (e->args.empty()) return e;
        std::vector<ExprP> args;
        bool same = true;
        for (const auto &x : e->args) {
            args.push_back(rewrite(x, c));
            same = same && args.back() == x;
        }
        if (same) return e;
        return make_expr(e->kind, e->loc, e->text, std::move(args));
    }

    StmtP rewrite_stmt(const Stmt &s, const Ctx &c) {
        auto n = std::make_shared<Stmt>(s);
        for (auto &dc : n->decls) {
            if (!dc.name.empty()) dc.name = c.prefix + dc.name;
            dc.value = rewrite_checked(dc.value, c, c.trace);
        }
        for (auto &cl : n->clauses)
            for (auto &x : cl.second) x = rewrite_checked(x, c, c.trace);
        for (auto &x : n->args) x = rewrite_checked(x, c, c.trace);
        n->trace = c.trace;
        return n;
    }

    void instantiate(const Stmt &use, const Ctx &outer) {
        const std::string &tn = use.text;
        auto it = templates_.find(tn);
        if (it == templates_.end()) {
            std::vector<std::string> names;
            for (const auto &t : templates_) names.push_back(t.first);
            d_.error(use.text_loc, "unknown template '" + tn + "'" + suggestion(tn, names));
            return;
        }
        const Stmt &t = *it->second;
        std::string inst = outer.prefix + use.decls[0].name;
        for (size_t i = 0; i < stack_.size(); ++i)
            if (stack_[i] == tn) {
                std::string chain;
                for (size_t j = i; j < stack_.size(); ++j) chain += stack_[j] + " -> ";
                d_.error(use.text_loc, "template '" + tn + "' instantiates itself (" + chain + tn + ")");
                return;
            }
        size_t required = 0;
        for (const auto &p : t.params)
            if (!p.value) ++required;
        if (use.args.size() < required || use.args.size() > t.params.size()) {
            std::string want = required == t.params.size()
                                   ? std::to_string(required)
                                   : std::to_string(required) + " to " + std::to_string(t.params.size());
            std::string plist;
            for (const auto &p : t.params) plist += (plist.empty() ? "" : ", ") + p.name;
            d_.error(use.decls[0].loc, "template '" + tn + "' takes " + want + " argument" +
                                           (t.params.size() == 1 && required == 1 ? "" : "s") + " (" + plist +
                                           "), " + std::to_string(use.args.size()) + " given");
            d_.note(t.decls[0].loc, "template '" + tn + "' is defined here");
            return;
        }
        auto prev = instances_.find(inst);
        if (prev != instances_.end()) {
            d_.error(use.decls[0].loc, "instance '" + inst + "' is defined twice");
            d_.note(prev->second, "first instance '" + inst + "'");
            return;
        }
        instances_[inst] = use.decls[0].loc;
        if (stack_.size() >= (size_t)kMaxTemplateDepth) {
            const InstanceRef *top = outer.trace.get();
            while (top->outer) top = top->outer.get();
            d_.error(use.text_loc, "template '" + tn + "' is used " + std::to_string(stack_.size() + 1) +
                                       " levels deep (inside instance '" + top->instance + "' of template '" +
                                       top->templ + "' and " + std::to_string(stack_.size() - 1) +
                                       " more); templates nest at most " + std::to_string(kMaxTemplateDepth) +
                                       " levels: use the inner templates side by side instead");
            return;
        }
        if (inst.size() > kMaxInstanceName) {
            d_.error(use.decls[0].loc, "the full name of this instance ('" + inst.substr(0, 40) + "...') is longer than " +
                                           std::to_string(kMaxInstanceName) + " characters (the limit); use shorter "
                                           "instance names");
            return;
        }

        Ctx in;
        in.prefix = inst + ".";
        in.locals = &locals_[tn];
        in.trace = std::make_shared<const InstanceRef>(InstanceRef{inst, tn, use.loc, outer.trace});
        count_expanded(in.trace);
        try {
            for (size_t i = 0; i < t.params.size(); ++i) {
                if (i < use.args.size())
                    in.args[t.params[i].name] = rewrite_checked(use.args[i], outer, in.trace);
                else   // a default: an expression in the instance's own scope
                    in.args[t.params[i].name] = rewrite_checked(t.params[i].value, in, in.trace);
            }
        } catch (const TooDeep &) {
            return;
        }
        stack_.push_back(tn);
        for (const auto &s : t.body) {
            if (s->kind == Stmt::Use) {
                instantiate(*s, in);
            } else if (s->kind != Stmt::Template) {
                count_expanded(in.trace);
                try {
                    emit(rewrite_stmt(*s, in));
                } catch (const TooDeep &) {
                }
            }
        }
        stack_.pop_back();
    }
};

}  // namespace

std::vector<StmtP> expand_templates(const Program &prog, Diagnostics &diags, size_t max_stmts) {
    Expander x(diags, max_stmts);
    try {
        return x.run(prog);
    } catch (const TooManyErrors &) {
        return {};
    }
}

}  // namespace vdl
}  // namespace railsym
